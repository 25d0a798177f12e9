public import CoreLocation
public import Foundation

/// Reads a workout route's locations, as HealthKit's `HKWorkoutRouteQuery`: the data handler is
/// called once per batch, in time order, the last time with `done` true; on failure once, with
/// the error and `done` true. Needs read permission for the route type, or the route must be
/// the app's own; any other route fails with `errorNoData`, like one that does not exist.
/// With a date interval (iOS 15.4's `init(route:dateInterval:dataHandler:)`) only the locations
/// whose timestamp lies in it, bounds included, are delivered.
public final class HKWorkoutRouteQuery: HKQuery, @unchecked Sendable {
    public typealias DataHandler = @Sendable (HKWorkoutRouteQuery, [CLLocation]?, Bool, (any Error)?) -> Void

    private let route: HKWorkoutRoute
    private let dateInterval: DateInterval?
    private let dataHandler: DataHandler

    @preconcurrency
    public convenience init(route workoutRoute: HKWorkoutRoute, dataHandler: @escaping DataHandler) {
        self.init(route: workoutRoute, interval: nil, dataHandler: dataHandler)
    }

    @preconcurrency
    public convenience init(route workoutRoute: HKWorkoutRoute, dateInterval: DateInterval, dataHandler: @escaping DataHandler) {
        self.init(route: workoutRoute, interval: dateInterval, dataHandler: dataHandler)
    }

    private init(route workoutRoute: HKWorkoutRoute, interval: DateInterval?, dataHandler: @escaping DataHandler) {
        route = workoutRoute
        dateInterval = interval
        self.dataHandler = dataHandler
        super.init(objectType: HKSeriesType.workoutRoute(), predicate: nil)
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                try await connection.routeLocations(route.uuid) { batch, done in
                    // A batch left empty by the interval is skipped, except the last: the
                    // handler always hears `done`.
                    let locations = RouteInterval.locations(batch, within: dateInterval)
                    if !locations.isEmpty || done { dataHandler(self, locations, done, nil) }
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
    /// Only locations timestamped inside it, bounds included; nil for the whole route.
    public let dateInterval: DateInterval?

    public init(_ workoutRoute: HKWorkoutRoute) {
        self.workoutRoute = workoutRoute
        dateInterval = nil
    }

    public init(_ workoutRoute: HKWorkoutRoute, dateInterval: DateInterval) {
        self.workoutRoute = workoutRoute
        self.dateInterval = dateInterval
    }

    /// The route's locations in time order. Ending the iteration early stops the broker's stream.
    public func results(for healthStore: HKHealthStore) -> Results {
        let uuid = workoutRoute.uuid
        let interval = dateInterval
        let connection = healthStore.connection
        return AsyncThrowingStream { continuation in
            let task = Task {
                do throws(HKError) {
                    try await connection.routeLocations(uuid) { batch, _ in
                        for location in RouteInterval.locations(batch, within: interval) { continuation.yield(location) }
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

/// The one rule for a route query's date interval (the query and its descriptor both use it).
enum RouteInterval {
    /// `locations` timestamped inside `interval`, bounds included (`DateInterval.contains`); all of
    /// them without an interval.
    static func locations(_ locations: [CLLocation], within interval: DateInterval?) -> [CLLocation] {
        guard let interval else { return locations }
        return locations.filter { interval.contains($0.timestamp) }
    }
}
