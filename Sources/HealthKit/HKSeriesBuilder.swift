/// The base of HealthKit's series builders (`HKSeriesBuilder`): `discard()` drops what was
/// collected without saving anything.
public class HKSeriesBuilder: @unchecked Sendable {
    init() {}

    /// Drops the series; a later add or finish fails.
    public func discard() {
        discardCollected()
    }

    func discardCollected() {}
}
