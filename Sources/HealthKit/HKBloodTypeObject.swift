public import Foundation

/// Wraps the user's blood type, as HealthKit's `HKBloodTypeObject`
/// (what `HKHealthStore.bloodType()` returns).
///
/// An `NSObject` with `NSSecureCoding`, as Apple's: the archive holds the value's raw value as
/// one number; a missing, mistyped or unknown raw value decodes as nil. Two are equal when
/// their values are (`==`, `isEqual(_:)`, `hash` and `Set` agree).
public final class HKBloodTypeObject: NSObject, NSCopying, NSSecureCoding, Sendable {
    public let bloodType: HKBloodType

    init(_ bloodType: HKBloodType) {
        self.bloodType = bloodType
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKBloodTypeObject)?.bloodType == bloodType
    }

    public override var hash: Int { bloodType.hashValue }

    /// Immutable, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let valueKey = "bloodType"

    public func encode(with coder: NSCoder) {
        coder.encode(NSNumber(value: bloodType.rawValue), forKey: Self.valueKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard let value = coder.decodeRequiredInt(forKey: Self.valueKey).flatMap(HKBloodType.init(rawValue:)) else { return nil }
        self.init(value)
    }
}
