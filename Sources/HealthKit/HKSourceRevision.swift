public import Foundation

/// A source at one version, as HealthKit's `HKSourceRevision` (version is the app's manifest
/// version at the time it saved).
///
/// `productType` and `operatingSystemVersion` are Apple's hardware model ("iPhone14,2") and OS
/// version at save time. healthd does not record them (a Linux app has neither an Apple product
/// type nor an iOS version to give), so fetched objects carry nil and 0.0.0, and a revision made
/// with the 4-argument initializer keeps what it was given.
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
        "HKSourceRevision(\(source.bundleIdentifier), version: \(version ?? "nil"))"
    }
}

/// Matches any version in a source-revision predicate (HealthKit's `HKSourceRevisionAnyVersion`).
public let HKSourceRevisionAnyVersion = "HKSourceRevisionAnyVersion"
/// Matches any product type (HealthKit's `HKSourceRevisionAnyProductType`).
public let HKSourceRevisionAnyProductType = "HKSourceRevisionAnyProductType"
/// Matches any operating system version (HealthKit's `HKSourceRevisionAnySystemVersion`: -1.0.0).
public let HKSourceRevisionAnySystemVersion = OperatingSystemVersion(majorVersion: -1, minorVersion: 0, patchVersion: 0)
