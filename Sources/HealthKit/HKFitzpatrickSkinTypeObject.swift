public import Foundation

/// Wraps the user's skin type on the Fitzpatrick scale, as HealthKit's `HKFitzpatrickSkinTypeObject`
/// (what `HKHealthStore.fitzpatrickSkinType()` returns).
///
/// An `NSObject` with `NSSecureCoding`, as Apple's: the archive holds the value's raw value as
/// one number; a missing, mistyped or unknown raw value decodes as nil. Two are equal when
/// their values are (`==`, `isEqual(_:)`, `hash` and `Set` agree).
public final class HKFitzpatrickSkinTypeObject: NSObject, NSCopying, NSSecureCoding, Sendable {
    public let skinType: HKFitzpatrickSkinType

    init(_ skinType: HKFitzpatrickSkinType) {
        self.skinType = skinType
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKFitzpatrickSkinTypeObject)?.skinType == skinType
    }

    public override var hash: Int { skinType.hashValue }

    /// Immutable, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let valueKey = "skinType"

    public func encode(with coder: NSCoder) {
        coder.encode(NSNumber(value: skinType.rawValue), forKey: Self.valueKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard let value = coder.decodeRequiredInt(forKey: Self.valueKey).flatMap(HKFitzpatrickSkinType.init(rawValue:)) else { return nil }
        self.init(value)
    }
}
