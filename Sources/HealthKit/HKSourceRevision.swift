/// A source at one version, as HealthKit's `HKSourceRevision` (version is the app's manifest
/// version at the time it saved).
public final class HKSourceRevision: Hashable, Sendable {
    public let source: HKSource
    public let version: String?

    public init(source: HKSource, version: String?) {
        self.source = source
        self.version = version
    }

    public static func == (lhs: HKSourceRevision, rhs: HKSourceRevision) -> Bool {
        lhs.source == rhs.source && lhs.version == rhs.version
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(version)
    }
}
