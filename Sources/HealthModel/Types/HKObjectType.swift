public import Foundation

/// The kind of a health object, as HealthKit's `HKObjectType`. Instances are immutable and
/// compare and hash by `identifier` alone (`==`, `isEqual(_:)`, `hash` and `Set` agree); the
/// registry hands out one shared instance per identifier (see `HKObjectType+Registry.swift`).
///
/// An `NSObject` with `NSSecureCoding`, as Apple's: the archive holds the identifier alone, and
/// decoding answers the registered type's properties (canonical unit, allowed values…), so an
/// archive can name a type but never redefine one. An identifier the registry does not know, or
/// one registered as another class than the one being decoded, decodes as nothing (nil), as a
/// secure-decoding failure does.
///
/// `@unchecked Sendable` because `NSObject` is not `Sendable` on Linux and the class is open to
/// this module's subclasses, which the compiler cannot check; every stored property of every
/// subclass is an immutable `let` of a `Sendable` type.
///
/// A new subclass must implement `required init?(coder:)`: one without stored properties of its
/// own forwards to `super.init(coder:)`, which checks the archived identifier is registered as
/// that subclass.
public class HKObjectType: NSObject, NSSecureCoding, @unchecked Sendable {
    /// HealthKit's identifier string, e.g. "HKQuantityTypeIdentifierStepCount".
    public let identifier: String

    init(identifier: String) {
        self.identifier = identifier
        super.init()
    }

    // MARK: Equality (NSObject's, so ==, Set and Dictionary use it too)

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKObjectType)?.identifier == identifier
    }

    public override var hash: Int { identifier.hashValue }

    public override var description: String { identifier }

    // MARK: NSSecureCoding

    public class var supportsSecureCoding: Bool { true }
    private static let identifierKey = "identifier"

    public func encode(with coder: NSCoder) {
        coder.encode(NSString(string: identifier), forKey: Self.identifierKey)
    }

    /// The type registered under the archived identifier, when it is an instance of exactly
    /// `expected`; nil for a missing or non-string identifier, an unknown one, or one of another
    /// class (an archive of a category type read as a quantity type). An identifier with two
    /// faces (`ObjectTypeRegistry.faces`: the medication type as apps see it and as the store
    /// keeps it) decodes as the one of class `expected`.
    static func registered(decodedFrom coder: NSCoder, as expected: HKObjectType.Type) -> HKObjectType? {
        guard let identifier = coder.decodeRequiredString(forKey: identifierKey) else { return nil }
        return ObjectTypeRegistry.faces(identifier).first { ObjectIdentifier(Swift.type(of: $0)) == ObjectIdentifier(expected) }
    }

    /// Decodes an instance of the class being decoded (`Self`), for subclasses whose only stored
    /// property is the identifier. No registered type is a bare `HKObjectType`, so for this
    /// class itself every archive decodes as nothing.
    public required init?(coder: NSCoder) {
        guard let registered = Self.registered(decodedFrom: coder, as: Self.self) else { return nil }
        identifier = registered.identifier
        super.init()
    }
}
