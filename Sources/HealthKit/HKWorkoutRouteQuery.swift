public import CoreLocation
public import Foundation

/// Reads a workout route's locations, as HealthKit's `HKWorkoutRouteQuery`: the data handler is
/// called once per batch, in time order, the last time with `done` true; on failure once, with
/// the error and `done` true. Needs read permission for the route type, or the route must be
/// the app's own; any other route fails with `errorNoData`, like one that does not exist.
public final class HKWorkoutRouteQuery: HKQuery, @unchecked Sendable {
    public typealias DataHandler = @Sendable (HKWorkoutRouteQuery, [CLLocation]?, Bool, (any Error)?) -> Void

    private let route: HKWorkoutRoute
    private let dataHandler: DataHandler

    @preconcurrency
    public init(route workoutRoute: HKWorkoutRoute, dataHandler: @escaping DataHandler) {
        route = workoutRoute
        self.dataHandler = dataHandler
        super.init(objectType: HKSeriesType.workoutRoute(), predicate: nil)
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                try await connection.routeLocations(route.uuid) { locations, done in
                    dataHandler(self, locations, done, nil)
                }
            } catch {
                dataHandler(self, nil, true, error)
            }
        }
        if !started {
            Task { [self] in
                dataHandler(self, nil, true, HKError(.errorInvalidArgument,
                                                     "this HKWorkoutRouteQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}

/// HealthKit's async route query: `for try await location in descriptor.results(for: store)`.
public struct HKWorkoutRouteQueryDescriptor: Sendable {
    public typealias Results = AsyncThrowingStream<CLLocation, any Error>

    public let workoutRoute: HKWorkoutRoute

    public init(_ workoutRoute: HKWorkoutRoute) {
        self.workoutRoute = workoutRoute
    }

    /// The route's locations in time order. Ending the iteration early stops the broker's stream.
    public func results(for healthStore: HKHealthStore) -> Results {
        let uuid = workoutRoute.uuid
        let connection = healthStore.connection
        return AsyncThrowingStream { continuation in
            let task = Task {
                do throws(HKError) {
                    try await connection.routeLocations(uuid) { locations, _ in
                        for location in locations { continuation.yield(location) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
