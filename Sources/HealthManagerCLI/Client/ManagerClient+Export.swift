public import Foundation
public import HealthWire

extension ManagerClient {
    /// A workout route's locations in time order, in the batches healthd sends them.
    public func queryRouteData(_ routeUUID: UUID) -> DecodedStream<RouteLocationBatch> {
        stream(.queryRouteData, RouteDataQuery(routeUUID: routeUUID), action: "read a workout route", as: RouteLocationBatch.self)
    }
}

extension ManagerClient {
    /// A heartbeat series' beats or an ECG's voltages, any source's, in the batches healthd sends.
    public func querySeriesData(_ uuid: UUID, typeIdentifier: String) -> DecodedStream<SeriesPointBatch> {
        stream(.querySeriesData, SeriesDataQuery(sampleUUID: uuid, typeIdentifier: typeIdentifier),
               action: "read a series' data", as: SeriesPointBatch.self)
    }
}
