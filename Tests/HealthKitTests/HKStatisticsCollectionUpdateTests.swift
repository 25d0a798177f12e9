import Foundation
import HealthIPC
import HealthWire
@testable import HealthKit
import Synchronization
import Testing

/// Long-running statistics collections against a fake broker: which method each form calls,
/// how deliveries of changed intervals become whole collections, which handler gets what, and
/// that stopping reaches the broker as a cancelled call.
@Suite(.timeLimit(.minutes(10))) struct HKStatisticsCollectionUpdateTests {
    let steps = HKQuantityType(.stepCount)
    /// 2026-01-01 00:00 UTC; intervals are hours from there.
    let anchor = Date(timeIntervalSince1970: 1_767_225_600)

    func hour(_ index: Int64, sum: Double) -> StatisticsResult {
        let start = 1_767_225_600_000_000 + index * 3_600_000_000
        return StatisticsResult(span: TimeSpan(start: start, end: start + 3_600_000_000), merged: StatisticsValues(sum: sum))
    }

    func query() -> HKStatisticsCollectionQuery {
        HKStatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: nil, options: .cumulativeSum,
                                    anchorDate: anchor, intervalComponents: DateComponents(hour: 1), timeZone: TimeZone(identifier: "UTC")!)
    }

    /// The sums of a collection's intervals with data, by hour index.
    func sums(_ collection: HKStatisticsCollection?) -> [Int: Double] {
        var sums: [Int: Double] = [:]
        for statistics in collection?.statistics() ?? [] {
            sums[Int(statistics.startDate.timeIntervalSince(anchor) / 3_600)] = statistics.sumQuantity()?.doubleValue(for: .count())
        }
        return sums
    }

    /// A broker that answers WatchStatisticsCollection with `messages`, then holds the call open
    /// until the client cancels it, which it records.
    final class WatchingBroker: Sendable {
        let requests = Mutex<[(method: String, spec: StatisticsCollectionSpec?)]>([])
        let cancelled = Mutex(false)

        func serve(_ call: IncomingCall, _ messages: [StatisticsCollectionDelivery]) async {
            requests.withLock { $0.append((call.method, try? StatisticsCollectionSpec(wire: call.payload))) }
            for message in messages { try? await call.responder.send(message.wireBytes()) }
            try? await Task.sleep(for: .seconds(30))
            cancelled.withLock { $0 = Task.isCancelled }
            call.responder.finish()
        }
    }

    @Test func theUpdateHandlerGetsTheWholeCollectionAfterEachChangeAndStoppingCancelsTheCall() async throws {
        let watching = WatchingBroker()
        let messages = [
            StatisticsCollectionDelivery(changed: [hour(0, sum: 10)], emptiedStarts: [], endOfDelivery: false),
            StatisticsCollectionDelivery(changed: [hour(1, sum: 20)], emptiedStarts: [], endOfDelivery: true),
            StatisticsCollectionDelivery(changed: [hour(1, sum: 25), hour(3, sum: 5)], emptiedStarts: [], endOfDelivery: true),
            StatisticsCollectionDelivery(changed: [], emptiedStarts: [hour(0, sum: 0).span.start], endOfDelivery: true),
        ]
        let broker = try FakeBroker { call in await watching.serve(call, messages) }
        defer { broker.close() }
        let (deliveries, sink) = AsyncStream.makeStream(of: (kind: String, latest: Int64?, latestSum: Double?, sums: [Int: Double]).self)
        let query = query()
        query.initialResultsHandler = { _, collection, error in
            sink.yield(("initial", nil, nil, error == nil ? sums(collection) : [:]))
        }
        query.statisticsUpdateHandler = { _, statistics, collection, error in
            let latest = statistics.map { Int64($0.startDate.timeIntervalSince(anchor) / 3_600) }
            sink.yield((error == nil ? "update" : "error", latest, statistics?.sumQuantity()?.doubleValue(for: .count()), sums(collection)))
        }
        broker.store.execute(query)
        var iterator = deliveries.makeAsyncIterator()
        let initial = try #require(await iterator.next())
        #expect(initial.kind == "initial")
        #expect(initial.sums == [0: 10, 1: 20])
        let first = try #require(await iterator.next())
        #expect(first.kind == "update")
        #expect(first.sums == [0: 10, 1: 25, 3: 5])
        #expect(first.latest == 3)
        #expect(first.latestSum == 5)
        let second = try #require(await iterator.next())
        #expect(second.sums == [1: 25, 3: 5])
        #expect(second.latest == 0)  // the emptied interval, without data
        #expect(second.latestSum == nil)

        broker.store.stop(query)
        #expect(try await eventually { watching.cancelled.withLock { $0 } })
        let requests = watching.requests.withLock { $0 }
        #expect(requests.map(\.method) == [HealthStoreMethod.watchStatisticsCollection.rawValue])
        #expect(requests.first?.spec == (try query.spec.get()))
        // A stopped query ends quietly: no error reaches the update handler.
        try await Task.sleep(for: .milliseconds(50))
        sink.finish()
        #expect(await iterator.next() == nil)
    }

    @Test func withoutAnUpdateHandlerTheQueryIsOneShot() async throws {
        let methods = Mutex<[String]>([])
        let broker = try FakeBroker { call in
            methods.withLock { $0.append(call.method) }
            try? await call.responder.send(StatisticsBatch([hour(2, sum: 7)]).wireBytes())
            call.responder.finish()
        }
        defer { broker.close() }
        let query = query()
        let collection: HKStatisticsCollection = try await withCheckedThrowingContinuation { continuation in
            query.initialResultsHandler = { _, collection, error in
                if let collection { continuation.resume(returning: collection) } else { continuation.resume(throwing: error!) }
            }
            broker.store.execute(query)
        }
        #expect(sums(collection) == [2: 7])
        #expect(methods.withLock { $0 } == [HealthStoreMethod.queryStatisticsCollection.rawValue])
    }

    @Test func anErrorBeforeTheInitialResultsGoesToTheInitialHandlerAndOneAfterToTheUpdateHandler() async throws {
        let initialResultsFirst = Mutex(false)
        let broker = try FakeBroker { call in
            if initialResultsFirst.withLock({ $0 }) {
                try? await call.responder.send(StatisticsCollectionDelivery(changed: [], emptiedStarts: [], endOfDelivery: true).wireBytes())
            }
            call.responder.fail(RPCStatus(HKError(.errorDatabaseInaccessible, "the store is locked")), streaming: true)
        }
        defer { broker.close() }
        /// Runs one query and returns its first `count` handler calls as "HANDLER CODE|ok".
        func handlerCalls(_ count: Int) async -> [String] {
            let (calls, sink) = AsyncStream.makeStream(of: String.self)
            let query = query()
            let describe: @Sendable (String, (any Error)?) -> String = { handler, error in
                "\(handler) \(error.map { "\(($0 as? HKError)?.code == .errorDatabaseInaccessible ? "locked" : "\($0)")" } ?? "ok")"
            }
            query.initialResultsHandler = { _, _, error in sink.yield(describe("initial", error)) }
            query.statisticsUpdateHandler = { _, _, _, error in sink.yield(describe("update", error)) }
            broker.store.execute(query)
            var seen: [String] = []
            for await call in calls.prefix(count) { seen.append(call) }
            return seen
        }
        #expect(await handlerCalls(1) == ["initial locked"])
        initialResultsFirst.withLock { $0 = true }
        #expect(await handlerCalls(2) == ["initial ok", "update locked"])
    }

    @Test func theDescriptorYieldsTheCollectionThenUpdatesNamingTheChangedIntervals() async throws {
        let watching = WatchingBroker()
        let messages = [
            StatisticsCollectionDelivery(changed: [hour(0, sum: 10)], emptiedStarts: [], endOfDelivery: true),
            StatisticsCollectionDelivery(changed: [hour(2, sum: 3)], emptiedStarts: [hour(0, sum: 0).span.start], endOfDelivery: true),
        ]
        let broker = try FakeBroker { call in await watching.serve(call, messages) }
        defer { broker.close() }
        let descriptor = HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: steps), options: .cumulativeSum, anchorDate: anchor,
            intervalComponents: DateComponents(hour: 1), timeZone: TimeZone(identifier: "UTC")!)
        var results: [HKStatisticsCollectionQueryDescriptor.Result] = []
        for try await result in descriptor.results(for: broker.store) {
            results.append(result)
            if results.count == 2 { break }
        }
        #expect(results.map { sums($0.statisticsCollection) } == [[0: 10], [2: 3]])
        #expect(results[0].updatedStatistics == nil)
        let updated = try #require(results[1].updatedStatistics)
        #expect(updated.map { Int($0.startDate.timeIntervalSince(anchor) / 3_600) } == [0, 2])
        #expect(updated.map { $0.sumQuantity()?.doubleValue(for: .count()) } == [nil, 3])
        // Leaving the loop stops the query on the broker.
        #expect(try await eventually { watching.cancelled.withLock { $0 } })
    }
}
