import Foundation
import HealthModel

/// The part of a route builder that only a workout builder's own (`seriesBuilder(for:)`) uses.
extension HKWorkoutRouteBuilder {
    /// Whether the builder holds locations (sent or being sent) that no finish has taken yet:
    /// what `HKWorkoutBuilder.finishWorkout()` still has to finish.
    var hasUnfinishedRoute: Bool {
        state.withLock { state in
            state.ending == nil && (state.inserted > 0 || state.inFlight > 0)
        }
    }

    /// Finishes the route with the workout its workout builder just saved; nil when there is
    /// nothing to finish (no location was inserted, or the builder was discarded, or the app
    /// finished it itself).
    func finishForWorkoutBuilder(_ workout: HKWorkout) async throws -> HKWorkoutRoute? {
        guard hasUnfinishedRoute else { return nil }
        // An insert under way may still fail; only locations healthd took make a route (an
        // empty one would be refused after the workout was saved).
        await insertsDrained()
        guard hasUnfinishedRoute else { return nil }
        return try await finish(with: workout, values: [:])
    }

    /// A workout builder's route must lie inside the workout (healthd checks it at finish, after
    /// the workout is saved); a location outside the span already known fails the insert now,
    /// naming it, so the workout's finish never fails on it.
    func checkInsideWorkout(_ locations: [RouteLocation], offset: Int) throws(HKError) {
        guard let span = workoutSpan?() else { return }
        for (index, location) in locations.enumerated() {
            if let start = span.start, location.timestamp < start {
                throw HKError(.errorInvalidArgument, "location \(offset + index) is timed before the workout began collecting "
                              + "(beginCollection); a workout builder's route must lie inside the workout")
            }
            if let end = span.end, location.timestamp > end {
                throw HKError(.errorInvalidArgument, "location \(offset + index) is timed after the workout ended collecting "
                              + "(endCollection); a workout builder's route must lie inside the workout")
            }
        }
    }
}
