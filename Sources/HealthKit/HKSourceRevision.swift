/// A source at one version, as HealthKit's `HKSourceRevision` (version is the app's manifest
/// version at the time it saved).
///
/// `productType` and `operatingSystemVersion` are Apple's hardware model ("iPhone14,2") and OS
/// version at save time. healthd does not record them (a Linux app has neither an Apple product
/// type nor an iOS version to give), so fetched objects carry nil and 0.0.0, and a revision made
/// with the 4-argument initializer keeps what it was given.
public final class HKSourceRevision: Hashable, Sendable, CustomStringConvertible {
    public let source: HKSource
    public let version: String?
    public let productType: String?
    public let operatingSystemVersion: OperatingSystemVersion

    public init(source: HKSource, version: String?) {
        self.source = source
        self.version = version
        productType = nil
        operatingSystemVersion = OperatingSystemVersion(majorVersion: 0, minorVersion: 0, patchVersion: 0)
    }

    /// Apple's initializer for a revision with a product type and system version, e.g. to match
    /// with `HKQuery.predicateForObjects(from: Set<HKSourceRevision>)`; the `HKSourceRevisionAny…`
    /// constants stand for "any".
    public init(source: HKSource, version: String?, productType: String?, operatingSystemVersion: OperatingSystemVersion) {
        self.source = source
        self.version = version
        self.productType = productType
        self.operatingSystemVersion = operatingSystemVersion
    }

    public static func == (lhs: HKSourceRevision, rhs: HKSourceRevision) -> Bool {
        lhs.source == rhs.source && lhs.version == rhs.version && lhs.productType == rhs.productType
            && lhs.operatingSystemVersion.majorVersion == rhs.operatingSystemVersion.majorVersion
            && lhs.operatingSystemVersion.minorVersion == rhs.operatingSystemVersion.minorVersion
            && lhs.operatingSystemVersion.patchVersion == rhs.operatingSystemVersion.patchVersion
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(version)
        hasher.combine(productType)
        hasher.combine(operatingSystemVersion.majorVersion)
        hasher.combine(operatingSystemVersion.minorVersion)
        hasher.combine(operatingSystemVersion.patchVersion)
    }

    public var description: String {
        "HKSourceRevision(\(source.bundleIdentifier), version: \(version ?? "nil"))"
    }
}

/// Matches any version in a source-revision predicate (HealthKit's `HKSourceRevisionAnyVersion`).
public let HKSourceRevisionAnyVersion = "HKSourceRevisionAnyVersion"
/// Matches any product type (HealthKit's `HKSourceRevisionAnyProductType`).
public let HKSourceRevisionAnyProductType = "HKSourceRevisionAnyProductType"
/// Matches any operating system version (HealthKit's `HKSourceRevisionAnySystemVersion`: -1.0.0).
public let HKSourceRevisionAnySystemVersion = OperatingSystemVersion(majorVersion: -1, minorVersion: 0, patchVersion: 0)
