public import Foundation

/// Wraps the user's biological sex, as HealthKit's `HKBiologicalSexObject`
/// (what `HKHealthStore.biologicalSex()` returns).
///
/// An `NSObject` with `NSSecureCoding`, as Apple's: the archive holds the value's raw value as
/// one number; a missing, mistyped or unknown raw value decodes as nil. Two are equal when
/// their values are (`==`, `isEqual(_:)`, `hash` and `Set` agree).
public final class HKBiologicalSexObject: NSObject, NSCopying, NSSecureCoding, Sendable {
    public let biologicalSex: HKBiologicalSex

    init(_ biologicalSex: HKBiologicalSex) {
        self.biologicalSex = biologicalSex
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKBiologicalSexObject)?.biologicalSex == biologicalSex
    }

    public override var hash: Int { biologicalSex.hashValue }

    /// Immutable, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let valueKey = "biologicalSex"

    public func encode(with coder: NSCoder) {
        coder.encode(NSNumber(value: biologicalSex.rawValue), forKey: Self.valueKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard let value = coder.decodeRequiredInt(forKey: Self.valueKey).flatMap(HKBiologicalSex.init(rawValue:)) else { return nil }
        self.init(value)
    }
}
