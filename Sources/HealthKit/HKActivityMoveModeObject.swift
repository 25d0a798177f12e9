public import Foundation

/// Wraps how the user's move goal is measured, as HealthKit's `HKActivityMoveModeObject`
/// (what `HKHealthStore.activityMoveMode()` returns).
///
/// An `NSObject` with `NSSecureCoding`, as Apple's: the archive holds the value's raw value as
/// one number; a missing, mistyped or unknown raw value decodes as nil. Two are equal when
/// their values are (`==`, `isEqual(_:)`, `hash` and `Set` agree).
public final class HKActivityMoveModeObject: NSObject, NSCopying, NSSecureCoding, Sendable {
    public let activityMoveMode: HKActivityMoveMode

    init(_ activityMoveMode: HKActivityMoveMode) {
        self.activityMoveMode = activityMoveMode
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKActivityMoveModeObject)?.activityMoveMode == activityMoveMode
    }

    public override var hash: Int { activityMoveMode.hashValue }

    /// Immutable, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let valueKey = "activityMoveMode"

    public func encode(with coder: NSCoder) {
        coder.encode(NSNumber(value: activityMoveMode.rawValue), forKey: Self.valueKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard let value = coder.decodeRequiredInt(forKey: Self.valueKey).flatMap(HKActivityMoveMode.init(rawValue:)) else { return nil }
        self.init(value)
    }
}
