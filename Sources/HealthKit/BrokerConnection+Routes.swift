import CoreLocation
import HealthWire

extension BrokerConnection {
    /// Streams route `routeUUID`'s locations, a batch at a time, to `handle` (with the batch's
    /// done flag). Cancelling the calling task before the last batch stops the broker's stream
    /// and throws `errorUserCanceled`; after it, returns (the app already has every location).
    func routeLocations(_ routeUUID: UUID, _ handle: ([CLLocation], _ done: Bool) async -> Void) async throws(HKError) {
        if Task.isCancelled { throw Self.queryStopped }
        let (client, batches) = try stream(.queryRouteData, RouteDataQuery(routeUUID: routeUUID))
        var finished = false
        do {
            for try await payload in batches {
                let batch: RouteLocationBatch
                do {
                    batch = try RouteLocationBatch(wire: payload)
                } catch {
                    throw HKError(.unknownError, "healthd sent a malformed batch of route locations (\(error))")
                }
                finished = batch.done
                await handle(batch.locations.map(CLLocation.init), batch.done)
            }
        } catch {
            if Task.isCancelled {
                if finished { return }
                throw Self.queryStopped
            }
            throw failure(error, on: client)
        }
        if finished { return }
        if Task.isCancelled { throw Self.queryStopped }
        throw HKError(.unknownError, "healthd ended the route's locations without its last batch")
    }
}
