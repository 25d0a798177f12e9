/// Wraps the user's skin type on the Fitzpatrick scale, as HealthKit's `HKFitzpatrickSkinTypeObject`
/// (what `HKHealthStore.fitzpatrickSkinType()` returns).
public final class HKFitzpatrickSkinTypeObject: Sendable {
    public let skinType: HKFitzpatrickSkinType

    init(_ skinType: HKFitzpatrickSkinType) {
        self.skinType = skinType
    }
}
