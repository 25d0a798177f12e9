import Foundation
import HealthStore
import Synchronization
import Testing

@testable import HealthBroker

/// The scheduling choke point at the store's door (`ScheduledStoreVisits`, through
/// `StoreHandle.withCurrentStore`): in a long-running query's call every store visit takes a
/// query slot of its app's, in turn with other apps' large queries; outside one it takes none;
/// a visit nested in a visit takes no second slot (one per app: it would wait for itself).
/// Before session 18 a long-running query's visits took no slot at all, and one app's watches
/// computed on every pool thread at once (`WatchSchedulingEndToEndTests`).
@Suite(.timeLimit(.minutes(10))) struct ScheduledStoreVisitsTests {
    final class Fixture {
        let directory: URL
        let encrypted: EncryptedDatabase
        let store: StoreHandle
        let scheduler: QueryScheduler

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("visits-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            encrypted = try EncryptedDatabase.open(directory: directory.path)
            store = try StoreHandle(directory: directory.path, opened: encrypted, notifying: ChangeNotifier())
            var limits = BrokerLimits()
            limits.largeQueriesRunning = 1
            limits.largeQueriesRunningPerApp = 1
            scheduler = QueryScheduler(limits: limits)
        }

        /// A visit as app `app`'s long-running query makes it; records `name` once inside.
        func visit(as app: String, _ name: String, into order: Order) -> Task<Void, any Error> {
            let visits = ScheduledStoreVisits(scheduler: scheduler, app: app)
            return Task { [store] in
                try await ScheduledStoreVisits.$current.withValue(visits) {
                    try await store.withDatabase { _ in order.append(name) }
                }
            }
        }

        /// Holds the broker's one slot (another app's large query) until `release` is called.
        func holdTheSlot() async throws -> (release: @Sendable () -> Void, done: Task<Void, any Error>) {
            let (gate, open) = AsyncStream<Void>.makeStream()
            let done = Task { [scheduler] in try await scheduler.run(app: "holder") { for await _ in gate {} } }
            while scheduler.runningCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
            return ({ open.finish() }, done)
        }

        deinit {
            try? encrypted.close()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    final class Order: Sendable {
        private let names = Mutex<[String]>([])
        func append(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    @Test func aLongRunningQuerysVisitWaitsForASlot() async throws {
        let fixture = try Fixture()
        let order = Order()
        let (release, holder) = try await fixture.holdTheSlot()
        let visit = fixture.visit(as: "A", "visit", into: order)
        try await Task.sleep(for: .milliseconds(200))
        #expect(order.all.isEmpty, "the visit entered the store while every slot was taken")
        #expect(fixture.scheduler.waitingCount == 1)
        release()
        try await holder.value
        try await visit.value
        #expect(order.all == ["visit"])
    }

    /// One app's many visits (24 watches waking at once) queue behind each other, not in front of
    /// another app's query: the other app's goes next, after at most one of theirs.
    @Test func anAppsVisitsQueueBehindEachOtherNotInFrontOfAnotherApp() async throws {
        let fixture = try Fixture()
        let order = Order()
        let (release, holder) = try await fixture.holdTheSlot()
        var visits: [Task<Void, any Error>] = []
        for index in 0..<6 {
            visits.append(fixture.visit(as: "watcher", "watcher \(index)", into: order))
            while fixture.scheduler.waitingCount < index + 1 { try await Task.sleep(for: .milliseconds(5)) }
        }
        let other = Task { [scheduler = fixture.scheduler] in try await scheduler.run(app: "victim") { order.append("victim") } }
        while fixture.scheduler.waitingCount < 7 { try await Task.sleep(for: .milliseconds(5)) }
        release()
        try await holder.value
        try await other.value
        for visit in visits { try await visit.value }
        #expect(order.all.firstIndex(of: "victim") == 1, "ran in order \(order.all)")
    }

    /// Outside a long-running query (a cheap call, the manager, a large query that holds its
    /// slot for the whole call) a visit takes no slot.
    @Test func aVisitOutsideALongRunningQueryTakesNoSlot() async throws {
        let fixture = try Fixture()
        let (release, holder) = try await fixture.holdTheSlot()
        defer { release() }
        let read = try await fixture.store.withDatabase { _ in true }
        #expect(read)
        #expect(fixture.scheduler.waitingCount == 0)
        release()
        try await holder.value
    }

    /// A visit inside a visit (`withDatabaseOffPool` enters through `withDatabase`; a handler may
    /// borrow the grants inside its read) takes no second slot: with one slot per app it would
    /// wait for itself forever.
    @Test func aNestedVisitTakesNoSecondSlot() async throws {
        let fixture = try Fixture()
        let visits = ScheduledStoreVisits(scheduler: fixture.scheduler, app: "A")
        let store = fixture.store
        let nested = try await ScheduledStoreVisits.$current.withValue(visits) {
            try await store.withDatabaseOffPool { _ in 1 } + store.withDatabase { _ in try await store.withGrants { _ in 1 } }
        }
        #expect(nested == 2)
        #expect(fixture.scheduler.runningCount == 0)
    }
}
