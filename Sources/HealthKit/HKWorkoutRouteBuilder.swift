public import CoreLocation
import Foundation
import HealthWire
import Synchronization

/// Builds a workout's GPS route, as HealthKit's `HKWorkoutRouteBuilder`: insert locations as
/// they arrive, then finish the route with the saved workout.
///
/// Each `insertRouteData` call is sent to healthd at once (in calls of at most
/// `WireLimits.maxLocationsPerMessage` locations, so a long route never exceeds the frame
/// limit), where the unfinished route is kept encrypted and durable; `finishRoute` turns it
/// into an `HKWorkoutRoute` associated with the workout. Needs share permission for
/// `HKSeriesType.workoutRoute()`; the workout must have been saved by this app, and every
/// location's timestamp must lie inside it.
public final class HKWorkoutRouteBuilder: Sendable {
    private let store: HKHealthStore
    private let device: HKDevice?
    /// Names this builder's unfinished route to healthd, which scopes it to the calling app.
    private let builderID = UUID()
    private let state = Mutex(State())

    private struct State {
        var inserted = 0
        var finished = false
    }

    public init(healthStore: HKHealthStore, device: HKDevice?) {
        store = healthStore
        self.device = device
    }

    /// Adds `routeData` to the route. Locations are checked here first (finite values, latitude
    /// within ±90°, longitude within ±180°, a horizontal accuracy that is not negative), then by
    /// healthd; an invalid location fails the call with `errorInvalidArgument` naming its
    /// position, and none of this call's locations are added.
    public func insertRouteData(_ routeData: [CLLocation]) async throws {
        let offset = try state.withLock { (state) throws(HKError) -> Int in
            guard !state.finished else { throw Self.alreadyFinished }
            return state.inserted
        }
        let locations = routeData.map(RouteLocation.init(location:))
        try RouteLocationValidator.check(locations, offset: offset)
        for start in stride(from: 0, to: locations.count, by: WireLimits.maxLocationsPerMessage) {
            let chunk = Array(locations[start..<min(locations.count, start + WireLimits.maxLocationsPerMessage)])
            let _: RouteLocationCount = try await store.connection.call(.insertRouteData, RouteDataChunk(builderID: builderID, locations: chunk))
            state.withLock { $0.inserted += chunk.count }
        }
    }

    @preconcurrency
    public func insertRouteData(_ routeData: [CLLocation], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        Task {
            do {
                try await insertRouteData(routeData)
                completion(true, nil)
            } catch {
                completion(false, error)
            }
        }
    }

    /// Saves the route, associated with `workout`, and returns it. The route spans its first to
    /// its last location.
    public func finishRoute(with workout: HKWorkout, metadata: [String: Any]?) async throws -> HKWorkoutRoute {
        let (values, conversionError) = MetadataConversion.convert(metadata)
        if let conversionError { throw conversionError }
        return try await finishRoute(with: workout, values: values ?? [:])
    }

    @preconcurrency
    public func finishRoute(with workout: HKWorkout, metadata: [String: Any]?,
                            completion: @escaping @Sendable (HKWorkoutRoute?, (any Error)?) -> Void) {
        let (values, conversionError) = MetadataConversion.convert(metadata)
        Task {
            do {
                if let conversionError { throw conversionError }
                completion(try await finishRoute(with: workout, values: values ?? [:]), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    /// `finishRoute` with the metadata already converted (`[String: Any]` cannot cross into a task).
    private func finishRoute(with workout: HKWorkout, values: [String: MetadataValue]) async throws -> HKWorkoutRoute {
        try state.withLock { (state) throws(HKError) in
            guard !state.finished else { throw Self.alreadyFinished }
        }
        let finish = RouteFinish(builderID: builderID, workoutUUID: workout.uuid, metadata: values, device: device?.record)
        let finished: FinishedRoute = try await store.connection.call(.finishRoute, finish)
        state.withLock { $0.finished = true }
        guard let route = try HKSample.fetched(finished.route) as? HKWorkoutRoute else {
            throw HKError(.unknownError, "healthd answered finishRoute with a sample that is not a route")
        }
        return route
    }

    private static let alreadyFinished = HKError(.errorInvalidArgument,
                                                 "this route builder's route was already finished; use a new HKWorkoutRouteBuilder")
}
