public import Foundation

/// The base of HealthKit's series builders (`HKSeriesBuilder`, an `NSObject` as Apple's):
/// `discard()` drops what was collected without saving anything. `HKHeartbeatSeriesBuilder` and
/// `HKWorkoutRouteBuilder` are its subclasses, so `seriesBuilder(for:) as? HKWorkoutRouteBuilder`
/// works as on Apple's platforms.
public class HKSeriesBuilder: NSObject, @unchecked Sendable {
    // @unchecked: the base holds no state; each subclass keeps its own behind a Mutex.
    override init() {
        super.init()
    }

    /// Drops the series; a later add or finish fails.
    public func discard() {
        discardCollected()
    }

    func discardCollected() {}
}
