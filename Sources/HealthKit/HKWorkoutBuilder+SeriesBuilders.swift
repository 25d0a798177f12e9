import Foundation
import HealthModel

/// `seriesBuilder(for:)`: the series a workout builder owns and finishes with its workout.
///
/// Apple (HKWorkoutBuilder.h): "Retrieves, and creates if it does not already exist, the series
/// builder for the specified type. The series constructed with the returned builder will be
/// associated with the workout when it is finished." The one series type Apple's workout
/// builder makes a builder for is the workout route (its `HKWorkoutRouteBuilder` documentation:
/// "To create a workout route, use seriesBuilder(for:)"); heartbeat series are built with
/// `HKHeartbeatSeriesBuilder(healthStore:device:start:)`, so for `.heartbeat()` this returns nil.
extension HKWorkoutBuilder {
    /// The builder's route builder for `HKSeriesType.workoutRoute()` — the same one on every
    /// call, with the workout builder's device — and nil for any other series type. Insert
    /// locations into it as they arrive; `finishWorkout()` finishes the route with the saved
    /// workout, so the app does not call `finishRoute` itself. After `discardWorkout()` it is
    /// discarded too.
    public func seriesBuilder(for seriesType: HKSeriesType) -> HKSeriesBuilder? {
        guard seriesType.identifier == HKWorkoutRouteTypeIdentifier else { return nil }
        let discarded = contents.withLock { $0.phase == .discarded }
        return routeBuilder.withLock { existing in
            if let existing { return existing }
            let made = HKWorkoutRouteBuilder(healthStore: healthStore, device: device) { [weak self] in
                guard let self else { return HKWorkoutRouteBuilder.WorkoutSpan() }
                return self.contents.withLock { HKWorkoutRouteBuilder.WorkoutSpan(start: $0.startDate, end: $0.endDate) }
            }
            if discarded { made.discard() }
            existing = made
            return made
        }
    }

    /// The saved workout, when `finishWorkout` saved it but its route is still unfinished (the
    /// finish was refused): what a second `finishWorkout` retries.
    func savedWorkoutWithUnfinishedRoute() -> HKWorkout? {
        guard let saved = contents.withLock({ $0.phase == .finished ? $0.savedWorkout : nil }),
              routeBuilder.withLock({ $0 })?.hasUnfinishedRoute == true else { return nil }
        return saved
    }

    /// Finishes the series of `workout` (saved just now): its route, if locations were inserted.
    func finishSeries(of workout: HKWorkout) async throws {
        guard let route = routeBuilder.withLock({ $0 }) else { return }
        _ = try await route.finishForWorkoutBuilder(workout)
    }
}
