/// Wraps whether the user uses a wheelchair, as HealthKit's `HKWheelchairUseObject`
/// (what `HKHealthStore.wheelchairUse()` returns).
public final class HKWheelchairUseObject: Sendable {
    public let wheelchairUse: HKWheelchairUse

    init(_ wheelchairUse: HKWheelchairUse) {
        self.wheelchairUse = wheelchairUse
    }
}
