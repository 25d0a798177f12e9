/// Wraps the user's blood type, as HealthKit's `HKBloodTypeObject`
/// (what `HKHealthStore.bloodType()` returns).
public final class HKBloodTypeObject: Sendable {
    public let bloodType: HKBloodType

    init(_ bloodType: HKBloodType) {
        self.bloodType = bloodType
    }
}
