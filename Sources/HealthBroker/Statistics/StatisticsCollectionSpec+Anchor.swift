import Foundation
import HealthModel

extension StatisticsCollectionSpec {
    /// The checks of `validate()`, and the anchor inside the dates the store accepts
    /// (1900–2200, `SampleLimits`). Session 17: an anchor of Int64.min or Int64.max
    /// microseconds from an app's request (`WireNumberJunkEndToEndTests`) ended healthd while
    /// it laid out the intervals, for every app. Every collection the broker computes, one-shot
    /// or watched, passes here first.
    ///
    /// Kept in the broker for now because the check belongs in `validate()` (HealthModel) and
    /// moving it there is a rebuild of every target; it is the broker's input either way.
    func validateRequest() throws(HKError) {
        try validate()
        guard (SampleLimits.earliestPermittedSampleDate...SampleLimits.latestPermittedSampleDate).contains(anchor) else {
            throw HKError(.errorInvalidArgument, "a statistics collection's anchorDate must lie between 1900-01-01 and 2200-01-01 (UTC)")
        }
    }
}
