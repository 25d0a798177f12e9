import Foundation
import HealthModel
import HealthWire

extension BrokerConnection {
    /// Streams series sample `uuid`'s points (a heartbeat series' beats or an ECG's voltages), a
    /// batch at a time, to `handle` with the batch's first index and done flag. Cancelling the
    /// calling task before the last batch stops the broker's stream and throws
    /// `errorUserCanceled`; after it, returns.
    func seriesPoints(_ uuid: UUID, typeIdentifier: String,
                      _ handle: (_ firstIndex: Int, SeriesPoints, _ done: Bool) async -> Void) async throws(HKError) {
        if Task.isCancelled { throw Self.queryStopped }
        let (client, batches) = try stream(.querySeriesData, SeriesDataQuery(sampleUUID: uuid, typeIdentifier: typeIdentifier))
        var finished = false
        do {
            for try await payload in batches {
                let batch: SeriesPointBatch
                do {
                    batch = try SeriesPointBatch(wire: payload)
                } catch {
                    throw HKError(.unknownError, "healthd sent a malformed batch of series data (\(error))")
                }
                finished = batch.done
                await handle(batch.firstIndex, batch.points, batch.done)
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
        throw HKError(.unknownError, "healthd ended the series data without its last batch")
    }
}
