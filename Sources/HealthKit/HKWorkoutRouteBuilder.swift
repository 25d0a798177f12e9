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
///
/// A builder from `HKWorkoutBuilder.seriesBuilder(for: .workoutRoute())` belongs to that
/// workout builder, which finishes the route when it finishes the workout (Apple's header: "If
/// you are using this route builder with a workout builder, you should never call this method.
/// The route will be finished when you finish the workout builder."). Such a builder refuses
/// locations outside the workout's collection span once it is known, at insert time, rather
/// than failing the finish after the workout was saved (HKWorkoutRouteBuilder+WorkoutBuilder).
public final class HKWorkoutRouteBuilder: HKSeriesBuilder, @unchecked Sendable {
    // @unchecked: all mutable state is in `state` (a Mutex); the rest is immutable.
    private let store: HKHealthStore
    private let device: HKDevice?
    /// Names this builder's unfinished route to healthd, which scopes it to the calling app.
    private let builderID = UUID()
    /// The owning workout builder's collection span, for a builder it made; nil for one the app made.
    let workoutSpan: (@Sendable () -> WorkoutSpan)?
    let state = Mutex(State())

    struct State {
        var inserted = 0
        /// `insertRouteData` calls under way: a finish waits for them, so a location the app
        /// inserted before the workout ended is never left out of the route.
        var inFlight = 0
        var drained: [CheckedContinuation<Void, Never>] = []
        var ending: Ending?
        /// What `addMetadata(_:)` added, saved with the route; `finishRoute`'s own metadata wins
        /// over it key by key.
        var metadata: [String: MetadataValue] = [:]
    }

    enum Ending {
        case finishing
        case finished(workout: UUID, route: HKWorkoutRoute)
        case discarded
    }

    /// The owning workout builder's dates: nil until it begins, resp. ends, collection.
    struct WorkoutSpan {
        var start: Date?
        var end: Date?
    }

    public init(healthStore: HKHealthStore, device: HKDevice?) {
        store = healthStore
        self.device = device
        workoutSpan = nil
        super.init()
    }

    /// A builder owned by a workout builder (`seriesBuilder(for:)`).
    init(healthStore: HKHealthStore, device: HKDevice?, workoutSpan: @escaping @Sendable () -> WorkoutSpan) {
        store = healthStore
        self.device = device
        self.workoutSpan = workoutSpan
        super.init()
    }

    /// Adds `routeData` to the route. Locations are checked here first (finite values, latitude
    /// within ±90°, longitude within ±180°, a horizontal accuracy that is not negative; for a
    /// workout builder's route, a time inside its collection span), then by healthd; an invalid
    /// location fails the call with `errorInvalidArgument` naming its position, and none of
    /// this call's locations are added.
    public func insertRouteData(_ routeData: [CLLocation]) async throws {
        let offset = try state.withLock { (state) throws(HKError) -> Int in
            if let ending = state.ending { throw Self.ended(ending) }
            state.inFlight += 1
            return state.inserted
        }
        defer { callEnded() }
        let locations = routeData.map(RouteLocation.init(location:))
        try RouteLocationValidator.check(locations, offset: offset)
        try checkInsideWorkout(locations, offset: offset)
        for start in stride(from: 0, to: locations.count, by: WireLimits.maxLocationsPerMessage) {
            let chunk = Array(locations[start..<min(locations.count, start + WireLimits.maxLocationsPerMessage)])
            let _: RouteLocationCount = try await store.connection.call(.insertRouteData, RouteDataChunk(builderID: builderID, locations: chunk))
            state.withLock { $0.inserted += chunk.count }
        }
    }

    @preconcurrency
    public func insertRouteData(_ routeData: [CLLocation], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.insertRouteData(routeData) }
    }

    /// Apple's `addMetadata(_:completion:)`: metadata saved with the route when it is finished
    /// (by `finishRoute`, or by the workout builder that owns this builder). Checked here as any
    /// metadata is; a later call adds to or replaces earlier keys. Fails once the builder is
    /// finished or discarded.
    public func addMetadata(_ metadata: [String: Any]) async throws {
        let (values, conversionError) = MetadataConversion.convert(metadata)
        if let conversionError { throw conversionError }
        try add(values ?? [:])
    }

    @preconcurrency
    public func addMetadata(_ metadata: [String: Any], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let (values, conversionError) = MetadataConversion.convert(metadata)
        Task {
            do {
                if let conversionError { throw conversionError }
                try add(values ?? [:])
                completion(true, nil)
            } catch {
                completion(false, error)
            }
        }
    }

    private func add(_ values: [String: MetadataValue]) throws(HKError) {
        try state.withLock { (state) throws(HKError) in
            if let ending = state.ending { throw Self.ended(ending) }
            state.metadata.merge(values) { _, added in added }
        }
    }

    /// Saves the route, associated with `workout`, and returns it. The route spans its first to
    /// its last location. On a workout builder's route that the workout builder already
    /// finished with `workout`, returns that route (the order Apple's "Creating a workout
    /// route" article shows: finish the workout, then the route).
    public func finishRoute(with workout: HKWorkout, metadata: [String: Any]?) async throws -> HKWorkoutRoute {
        let (values, conversionError) = MetadataConversion.convert(metadata)
        if let conversionError { throw conversionError }
        return try await finish(with: workout, values: values ?? [:])
    }

    @preconcurrency
    public func finishRoute(with workout: HKWorkout, metadata: [String: Any]?,
                            completion: @escaping @Sendable (HKWorkoutRoute?, (any Error)?) -> Void) {
        let (values, conversionError) = MetadataConversion.convert(metadata)
        Task {
            do {
                if let conversionError { throw conversionError }
                completion(try await finish(with: workout, values: values ?? [:]), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    /// Finishes the route once: waits for inserts under way, then asks healthd. A refused
    /// finish leaves the builder open (its locations stay in healthd), so it can be retried.
    func finish(with workout: HKWorkout, values finishValues: [String: MetadataValue]) async throws -> HKWorkoutRoute {
        var values = finishValues
        let earlier = try state.withLock { (state) throws(HKError) -> HKWorkoutRoute? in
            values = state.metadata.merging(finishValues) { _, finishing in finishing }
            switch state.ending {
            case let .finished(finishedWorkout, route) where workoutSpan != nil && finishedWorkout == workout.uuid:
                return route
            case let .some(ending):
                throw Self.ended(ending)
            case nil:
                state.ending = .finishing
                return nil
            }
        }
        if let earlier { return earlier }
        await insertsDrained()
        do {
            let finish = RouteFinish(builderID: builderID, workoutUUID: workout.uuid, metadata: values, device: device?.record)
            let finished: FinishedRoute = try await store.connection.call(.finishRoute, finish)
            guard let route = try HKSample.fetched(finished.route) as? HKWorkoutRoute else {
                throw HKError(.unknownError, "healthd answered finishRoute with a sample that is not a route")
            }
            state.withLock { $0.ending = .finished(workout: workout.uuid, route: route) }
            return route
        } catch {
            state.withLock { $0.ending = nil }
            throw error
        }
    }

    /// Invalidates the builder. The locations already sent stay in healthd's unfinished-route
    /// table until it drops drafts older than a week (healthd has no call to drop one sooner);
    /// they are never readable as a route.
    override func discardCollected() {
        state.withLock { state in
            if case .finished = state.ending { return }
            state.ending = .discarded
        }
    }

    private func callEnded() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.inFlight -= 1
            guard state.inFlight == 0 else { return [] }
            defer { state.drained = [] }
            return state.drained
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once no `insertRouteData` call is under way.
    func insertsDrained() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                if state.inFlight == 0 { return true }
                state.drained.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private static func ended(_ ending: Ending) -> HKError {
        switch ending {
        case .finishing:
            HKError(.errorInvalidArgument, "this route builder's route is being finished; use a new HKWorkoutRouteBuilder")
        case .finished:
            HKError(.errorInvalidArgument, "this route builder's route was already finished; use a new HKWorkoutRouteBuilder")
        case .discarded:
            HKError(.errorInvalidArgument, "this route builder was discarded; use a new HKWorkoutRouteBuilder")
        }
    }
}
