public import Foundation
public import HealthWire

extension ManagerClient {
    /// A workout route's locations in time order, in the batches healthd sends them.
    public func queryRouteData(_ routeUUID: UUID) -> DecodedStream<RouteLocationBatch> {
        stream(.queryRouteData, RouteDataQuery(routeUUID: routeUUID), action: "read a workout route", as: RouteLocationBatch.self)
    }
}
