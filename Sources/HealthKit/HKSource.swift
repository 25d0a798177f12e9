/// The app that saved an object, as HealthKit's `HKSource`. The broker fills it in from the
/// connection's identity; an app cannot claim another app's source.
public final class HKSource: Hashable, CustomStringConvertible, Sendable {
    public let name: String
    public let bundleIdentifier: String

    public init(name: String, bundleIdentifier: String) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
    }

    public static func == (lhs: HKSource, rhs: HKSource) -> Bool {
        lhs.bundleIdentifier == rhs.bundleIdentifier && lhs.name == rhs.name
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bundleIdentifier)
        hasher.combine(name)
    }

    public var description: String { "HKSource(\(bundleIdentifier))" }
}
