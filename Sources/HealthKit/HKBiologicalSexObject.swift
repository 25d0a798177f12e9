/// Wraps the user's biological sex, as HealthKit's `HKBiologicalSexObject`
/// (what `HKHealthStore.biologicalSex()` returns).
public final class HKBiologicalSexObject: Sendable {
    public let biologicalSex: HKBiologicalSex

    init(_ biologicalSex: HKBiologicalSex) {
        self.biologicalSex = biologicalSex
    }
}
