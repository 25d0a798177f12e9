public import Foundation

/// The app that saved an object, as HealthKit's `HKSource`. The broker fills it in from the
/// connection's identity; an app cannot claim another app's source.
///
/// An `NSObject` with `NSSecureCoding`, as Apple's. Two sources are equal when name and bundle
/// identifier are (`==`, `isEqual(_:)` and `Set` agree).
public final class HKSource: NSObject, NSSecureCoding, @unchecked Sendable {
    // @unchecked: both stored properties are immutable strings.
    public let name: String
    public let bundleIdentifier: String

    public init(name: String, bundleIdentifier: String) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
        super.init()
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let nameKey = "name"
    private static let bundleIdentifierKey = "bundleIdentifier"

    public func encode(with coder: NSCoder) {
        coder.encode(NSString(string: name), forKey: Self.nameKey)
        coder.encode(NSString(string: bundleIdentifier), forKey: Self.bundleIdentifierKey)
    }

    /// Fails (nil) when the archive lacks the name or bundle identifier.
    public required convenience init?(coder: NSCoder) {
        guard let name = coder.decodeRequiredString(forKey: Self.nameKey),
              let bundleIdentifier = coder.decodeRequiredString(forKey: Self.bundleIdentifierKey) else { return nil }
        self.init(name: name, bundleIdentifier: bundleIdentifier)
    }

    // MARK: Equality (NSObject's, so == and Set use it too)

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKSource else { return false }
        return other.bundleIdentifier == bundleIdentifier && other.name == name
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(bundleIdentifier)
        hasher.combine(name)
        return hasher.finalize()
    }

    public override var description: String { "HKSource(\(bundleIdentifier))" }
}
