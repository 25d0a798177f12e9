public import Foundation

/// A source at one version, as HealthKit's `HKSourceRevision` (version is the app's manifest
/// version at the time it saved).
///
/// `productType` and `operatingSystemVersion` describe the device that saved the object, as
/// Apple's ("iPhone14,2", 17.1.0): healthd stamps every save with its host's — the machine's
/// model name (or CPU architecture) and kernel release (README.md, "Source revisions") — and
/// imports keep what Apple's export names. The app cannot choose them. Objects stored before
/// the store recorded them carry nil and 0.0.0; a revision made with the 4-argument initializer
/// keeps what it was given.
///
/// An `NSObject` with `NSSecureCoding`, as Apple's. Two revisions are equal when source, version,
/// product type and system version are (`==`, `isEqual(_:)` and `Set` agree).
public final class HKSourceRevision: NSObject, NSSecureCoding, @unchecked Sendable {
    // @unchecked: every stored property is immutable and itself Sendable.
    public let source: HKSource
    public let version: String?
    public let productType: String?
    public let operatingSystemVersion: OperatingSystemVersion

    public init(source: HKSource, version: String?) {
        self.source = source
        self.version = version
        productType = nil
        operatingSystemVersion = OperatingSystemVersion(majorVersion: 0, minorVersion: 0, patchVersion: 0)
        super.init()
    }

    /// Apple's initializer for a revision with a product type and system version, e.g. to match
    /// with `HKQuery.predicateForObjects(from: Set<HKSourceRevision>)`; the `HKSourceRevisionAny…`
    /// constants stand for "any".
    public init(source: HKSource, version: String?, productType: String?, operatingSystemVersion: OperatingSystemVersion) {
        self.source = source
        self.version = version
        self.productType = productType
        self.operatingSystemVersion = operatingSystemVersion
        super.init()
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let versionKey = "version"
    private static let productTypeKey = "productType"
    private static let systemVersionKeys = (major: "osMajor", minor: "osMinor", patch: "osPatch")

    /// The source's fields sit beside the revision's rather than as a nested object: when a
    /// secure archive holds an object of an unexpected class, swift-corelibs-foundation traps
    /// (`fatalError`) instead of failing, so a tampered archive must give it no nested object to
    /// check. Every field here is a string or number, so tampering can only make decoding fail.
    public func encode(with coder: NSCoder) {
        source.encode(with: coder)
        if let version { coder.encode(NSString(string: version), forKey: Self.versionKey) }
        if let productType { coder.encode(NSString(string: productType), forKey: Self.productTypeKey) }
        coder.encode(operatingSystemVersion.majorVersion, forKey: Self.systemVersionKeys.major)
        coder.encode(operatingSystemVersion.minorVersion, forKey: Self.systemVersionKeys.minor)
        coder.encode(operatingSystemVersion.patchVersion, forKey: Self.systemVersionKeys.patch)
    }

    /// Fails (nil) when the archive holds no source, or a version or product type that is not a
    /// string. A missing system version reads as 0.0.0, what fetched objects carry.
    public required convenience init?(coder: NSCoder) {
        guard let source = HKSource(coder: coder),
              let version = coder.decodeOptionalString(forKey: Self.versionKey),
              let productType = coder.decodeOptionalString(forKey: Self.productTypeKey) else { return nil }
        let system = OperatingSystemVersion(majorVersion: coder.decodeInteger(forKey: Self.systemVersionKeys.major),
                                            minorVersion: coder.decodeInteger(forKey: Self.systemVersionKeys.minor),
                                            patchVersion: coder.decodeInteger(forKey: Self.systemVersionKeys.patch))
        self.init(source: source, version: version, productType: productType, operatingSystemVersion: system)
    }

    // MARK: Equality (NSObject's, so == and Set use it too)

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKSourceRevision else { return false }
        return other.source == source && other.version == version && other.productType == productType
            && other.operatingSystemVersion.majorVersion == operatingSystemVersion.majorVersion
            && other.operatingSystemVersion.minorVersion == operatingSystemVersion.minorVersion
            && other.operatingSystemVersion.patchVersion == operatingSystemVersion.patchVersion
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(source)
        hasher.combine(version)
        hasher.combine(productType)
        hasher.combine(operatingSystemVersion.majorVersion)
        hasher.combine(operatingSystemVersion.minorVersion)
        hasher.combine(operatingSystemVersion.patchVersion)
        return hasher.finalize()
    }

    public override var description: String {
        let system = operatingSystemVersion
        return "HKSourceRevision(\(source.bundleIdentifier), version: \(version ?? "nil"), productType: \(productType ?? "nil"), "
            + "operatingSystemVersion: \(system.majorVersion).\(system.minorVersion).\(system.patchVersion))"
    }
}

extension HKSourceRevision {
    /// A fetched object's revision, as the broker recorded it.
    convenience init(_ record: SourceRecord) {
        let system = record.operatingSystemVersion
        self.init(source: HKSource(name: record.name, bundleIdentifier: record.bundleIdentifier), version: record.version,
                  productType: record.productType,
                  operatingSystemVersion: OperatingSystemVersion(majorVersion: system.major, minorVersion: system.minor,
                                                                 patchVersion: system.patch))
    }

    /// The revision as the wire's source record: what predicates are matched against in memory
    /// and what an archived sample carries.
    var record: SourceRecord {
        let system = operatingSystemVersion
        return SourceRecord(bundleIdentifier: source.bundleIdentifier, name: source.name, version: version, productType: productType,
                            operatingSystemVersion: SystemVersion(major: system.majorVersion, minor: system.minorVersion,
                                                                  patch: system.patchVersion))
    }
}

/// Matches any version in a source-revision predicate (HealthKit's `HKSourceRevisionAnyVersion`).
public let HKSourceRevisionAnyVersion = "HKSourceRevisionAnyVersion"
/// Matches any product type (HealthKit's `HKSourceRevisionAnyProductType`).
public let HKSourceRevisionAnyProductType = "HKSourceRevisionAnyProductType"
/// Matches any operating system version in a source-revision predicate (HealthKit's
/// `HKSourceRevisionAnyOperatingSystem`). Apple does not document its value; -1.0.0 is a
/// version no system has.
public let HKSourceRevisionAnyOperatingSystem = OperatingSystemVersion(majorVersion: -1, minorVersion: 0, patchVersion: 0)
/// The name this SDK used before it had Apple's (`HKSourceRevisionAnyOperatingSystem`).
@available(*, deprecated, renamed: "HKSourceRevisionAnyOperatingSystem")
public let HKSourceRevisionAnySystemVersion = HKSourceRevisionAnyOperatingSystem
