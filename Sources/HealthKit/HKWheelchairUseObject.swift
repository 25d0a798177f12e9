public import Foundation

/// Wraps whether the user uses a wheelchair, as HealthKit's `HKWheelchairUseObject`
/// (what `HKHealthStore.wheelchairUse()` returns).
///
/// An `NSObject` with `NSSecureCoding`, as Apple's: the archive holds the value's raw value as
/// one number; a missing, mistyped or unknown raw value decodes as nil. Two are equal when
/// their values are (`==`, `isEqual(_:)`, `hash` and `Set` agree).
public final class HKWheelchairUseObject: NSObject, NSCopying, NSSecureCoding, Sendable {
    public let wheelchairUse: HKWheelchairUse

    init(_ wheelchairUse: HKWheelchairUse) {
        self.wheelchairUse = wheelchairUse
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKWheelchairUseObject)?.wheelchairUse == wheelchairUse
    }

    public override var hash: Int { wheelchairUse.hashValue }

    /// Immutable, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let valueKey = "wheelchairUse"

    public func encode(with coder: NSCoder) {
        coder.encode(NSNumber(value: wheelchairUse.rawValue), forKey: Self.valueKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard let value = coder.decodeRequiredInt(forKey: Self.valueKey).flatMap(HKWheelchairUse.init(rawValue:)) else { return nil }
        self.init(value)
    }
}
