// An app that reads and then leaves while its reads are in flight, for AccessLogCancellationEndToEndTests:
// every delivery it received must be in the access log however it goes.
import Foundation
import HealthKit
import Synchronization

/// `read-then-leave --observe T --anchored T --collection T --query T --on ready|update --after-ms N
/// --leave exit|stop|stay`:
///
/// 1. Opens an observer query on the `--observe` type, a long-running anchored query on the
///    `--anchored` type and a statistics collection with updates (hourly sums) on the
///    `--collection` type, and waits for their initial results.
/// 2. Runs a sample query of the `--query` type to its end.
/// 3. Prints `ready`. With `--on update` it then waits for the first update of any of the three
///    long-running queries (the test saves samples of their types).
/// 4. Starts the same sample query again, waits `--after-ms` milliseconds, and leaves while that
///    query (and the three long-running ones) are still open: `exit` exits the process at once;
///    `stop` stops every query (`HKHealthStore.stop`, a CANCEL each), prints `stopped` and stays
///    connected; `stay` prints `leaving` and waits to be killed (the test's SIGKILL).
///
/// What the app received, as it arrives: `got observer`, `got anchored initial|update ADDED`,
/// `got collection initial|update SUM` (the collection's total, every sample being 1 count) and
/// `got query COUNT` (the first sample query's; the second's answer is not awaited). A query that
/// fails (the lock ends the long-running ones) prints `error KIND …` and the app exits with 3.
func readThenLeaveCommand(_ arguments: [String], store: HKHealthStore) async throws {
    func sampleType(_ flag: String) -> HKSampleType {
        guard let identifier = values(of: flag, in: arguments).first, let sampleType = type(identifier) as? HKSampleType else {
            usage("read-then-leave --observe T --anchored T --collection T --query T --on ready|update --after-ms N --leave exit|stop|stay")
        }
        return sampleType
    }
    let observed = sampleType("--observe"), anchored = sampleType("--anchored"), queried = sampleType("--query")
    guard let collected = sampleType("--collection") as? HKQuantityType,
          let trigger = values(of: "--on", in: arguments).first, ["ready", "update"].contains(trigger),
          let afterMilliseconds = values(of: "--after-ms", in: arguments).first.flatMap(Int.init),
          let leave = values(of: "--leave", in: arguments).first, ["exit", "stop", "stay"].contains(leave) else {
        usage("read-then-leave … --collection QUANTITY-TYPE --on ready|update --after-ms N --leave exit|stop|stay")
    }

    // Each long-running query reports its initial results once, then its updates: "KIND initial|update".
    let events = AsyncStream<String>.makeStream()
    let observerCalls = Counter()
    let observer = HKObserverQuery(sampleType: observed, predicate: nil) { _, completion, error in
        if let error { emitAndExit("error observer \(error)") }
        emit("got observer")
        completion()
        events.continuation.yield(observerCalls.next() == 1 ? "observer initial" : "observer update")
    }
    let anchoredQuery = HKAnchoredObjectQuery(type: anchored, predicate: nil, anchor: nil,
                                              limit: HKObjectQueryNoLimit) { _, added, _, _, error in
        if let error { emitAndExit("error anchored \(error)") }
        emit("got anchored initial \(added?.count ?? 0)")
        events.continuation.yield("anchored initial")
    }
    anchoredQuery.updateHandler = { _, added, _, _, error in
        if let error { emitAndExit("error anchored \(error)") }
        emit("got anchored update \(added?.count ?? 0)")
        events.continuation.yield("anchored update")
    }
    var hourly = DateComponents()
    hourly.hour = 1
    let collection = HKStatisticsCollectionQuery(quantityType: collected, quantitySamplePredicate: nil, options: .cumulativeSum,
                                                 anchorDate: Date(timeIntervalSince1970: 0), intervalComponents: hourly)
    collection.initialResultsHandler = { _, results, error in
        if let error { emitAndExit("error collection \(error)") }
        emit("got collection initial \(Int(total(results)))")
        events.continuation.yield("collection initial")
    }
    collection.statisticsUpdateHandler = { _, _, results, error in
        if let error { emitAndExit("error collection \(error)") }
        emit("got collection update \(Int(total(results)))")
        events.continuation.yield("collection update")
    }
    for query in [observer, anchoredQuery, collection] as [HKQuery] { store.execute(query) }

    var iterator = events.stream.makeAsyncIterator()
    var initial = 0
    while initial < 3, let event = await iterator.next() {
        if event.hasSuffix("initial") { initial += 1 }
    }
    emit("got query \(try await runSampleQuery(queried, store: store, started: { _ in }))")
    emit("ready")
    if trigger == "update" {
        while let event = await iterator.next(), !event.hasSuffix("update") {}
    }

    // The second sample query: in flight (holding this app's query slot) when the app leaves.
    let inFlight = InFlightQuery()
    Task { _ = try? await runSampleQuery(queried, store: store) { query in inFlight.query.withLock { $0 = query } } }
    if afterMilliseconds > 0 { try await Task.sleep(for: .milliseconds(afterMilliseconds)) }
    switch leave {
    case "exit":
        exit(0)
    case "stop":
        for query in [observer, anchoredQuery, collection] as [HKQuery] { store.stop(query) }
        if let query = inFlight.query.withLock({ $0 }) { store.stop(query) }
        emit("stopped")
    default:
        emit("leaving")
    }
    try await Task.sleep(for: .seconds(600))
}

/// Runs a sample query of `sampleType` (no limit) and returns how many samples it delivered;
/// `started` gets the query once it is executing, for a caller that stops it.
private func runSampleQuery(_ sampleType: HKSampleType, store: HKHealthStore,
                            started: @Sendable (HKQuery) -> Void) async throws -> Int {
    try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: sampleType, predicate: nil, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: nil) { _, samples, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples?.count ?? 0) }
        }
        store.execute(query)
        started(query)
    }
}

/// The sum over every interval of a collection of counts.
private func total(_ collection: HKStatisticsCollection?) -> Double {
    (collection?.statistics() ?? []).reduce(0) { $0 + ($1.sumQuantity()?.doubleValue(for: .count()) ?? 0) }
}

private final class InFlightQuery: Sendable {
    let query = Mutex<HKQuery?>(nil)
}

/// Numbers the calls of a handler: 1 for the first.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func next() -> Int { count.withLock { $0 += 1; return $0 } }
}

private func emitAndExit(_ line: String) -> Never {
    emit(line)
    exit(3)
}
