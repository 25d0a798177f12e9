public import Foundation
import HealthModel
public import HealthWire

extension ManagerClient {
    /// A workout route's locations in time order, in the batches healthd sends them.
    public func queryRouteData(_ routeUUID: UUID) -> DecodedStream<RouteLocationBatch> {
        stream(.queryRouteData, RouteDataQuery(routeUUID: routeUUID), action: "read a workout route", as: RouteLocationBatch.self)
    }

    /// The routes associated with a workout, oldest first, each as its route sample and all its
    /// locations — what both `healthctl export` (GPX files) and `healthctl report` (route maps)
    /// need, asked the same way.
    func workoutRoutes(of workout: UUID) async throws(HealthCtlError) -> [(route: SampleRecord, locations: [RouteLocation])] {
        var routes: [(route: SampleRecord, locations: [RouteLocation])] = []
        let spec = SampleQuerySpec(typeIdentifier: HKWorkoutRouteTypeIdentifier, predicate: .workout(workout),
                                   sort: [SampleSort(.startDate, ascending: true)])
        for try await batch in querySamples(spec) {
            for route in batch.samples {
                var locations: [RouteLocation] = []
                for try await chunk in queryRouteData(route.uuid) {
                    locations += chunk.locations
                }
                routes.append((route, locations))
            }
        }
        return routes
    }
}

extension ManagerClient {
    /// A heartbeat series' beats or an ECG's voltages, any source's, in the batches healthd sends.
    public func querySeriesData(_ uuid: UUID, typeIdentifier: String) -> DecodedStream<SeriesPointBatch> {
        stream(.querySeriesData, SeriesDataQuery(sampleUUID: uuid, typeIdentifier: typeIdentifier),
               action: "read a series' data", as: SeriesPointBatch.self)
    }
}
