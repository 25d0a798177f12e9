import Foundation
import HealthKit

/// `collection-updates COLLECTION-ARGUMENTS… --updates N [--descriptor] [--linger]`: a long-running
/// collection query — its `statisticsUpdateHandler`, or with `--descriptor` the descriptor's
/// `results(for:)` — that exits after N updates, stopping the query.
///
/// Output per delivery: a `stat` line (see `printStatistics`) for each interval with data in the
/// collection, then `delivery initial|update CHANGED`: CHANGED lists the starts (seconds) of the
/// updated statistics the delivery named, comma-separated, or `-` — the handler names one (the
/// latest changed interval), the descriptor all of them. Finally `ok DELIVERIES`.
func collectionUpdatesCommand(_ arguments: [String], store: HKHealthStore) async throws {
    guard let wanted = values(of: "--updates", in: arguments).first.flatMap(Int.init) else {
        print("usage: collection-updates TYPE --anchor S --interval UNIT --zone ZONE --options … --updates N [--descriptor]")
        exit(2)
    }
    let query = collectionQuery(arguments)
    let deliveries = arguments.contains("--descriptor") ? descriptorDeliveries(of: query, store: store) : handlerDeliveries(of: query, store: store)
    var count = 0
    for try await (collection, changed) in deliveries {
        for statistics in collection.statistics() { printStatistics(statistics, unit: nil) }
        let starts = changed.map { $0.map { String(Int($0.startDate.timeIntervalSince1970)) }.joined(separator: ",") }
        emit("delivery \(count == 0 ? "initial" : "update") \(starts.flatMap { $0.isEmpty ? nil : $0 } ?? "-")")
        count += 1
        if count > wanted { break }
    }
    store.stop(query)
    emit("ok \(count)")
    // `--linger`: stay connected after stopping, so a test can check that the stop itself (not
    // the connection closing) ended the query on healthd.
    if arguments.contains("--linger") { try await Task.sleep(for: .seconds(60)) }
}

/// A delivery as the command prints it: the collection and the statistics it named as updated.
private typealias CollectionDelivery = (HKStatisticsCollection, [HKStatistics]?)

private func handlerDeliveries(of query: HKStatisticsCollectionQuery, store: HKHealthStore) -> AsyncThrowingStream<CollectionDelivery, any Error> {
    let (stream, continuation) = AsyncThrowingStream<CollectionDelivery, any Error>.makeStream()
    query.initialResultsHandler = { _, collection, error in
        if let error { continuation.finish(throwing: error); return }
        continuation.yield((collection!, nil))
    }
    query.statisticsUpdateHandler = { _, statistics, collection, error in
        if let error { continuation.finish(throwing: error); return }
        continuation.yield((collection!, statistics.map { [$0] }))
    }
    store.execute(query)
    return stream
}

private func descriptorDeliveries(of query: HKStatisticsCollectionQuery, store: HKHealthStore) -> AsyncThrowingStream<CollectionDelivery, any Error> {
    let descriptor = HKStatisticsCollectionQueryDescriptor(
        predicate: .quantitySample(type: query.quantityType, predicate: query.predicate), options: query.options,
        anchorDate: query.anchorDate, intervalComponents: query.intervalComponents, timeZone: query.timeZone)
    let (stream, continuation) = AsyncThrowingStream<CollectionDelivery, any Error>.makeStream()
    let task = Task {
        do {
            for try await result in descriptor.results(for: store) {
                continuation.yield((result.statisticsCollection, result.updatedStatistics))
            }
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
    }
    // Ending the command's loop ends this stream, which ends the descriptor's iteration: CANCEL.
    continuation.onTermination = { _ in task.cancel() }
    return stream
}
