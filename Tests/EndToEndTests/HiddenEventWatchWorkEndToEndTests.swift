import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Synchronization
import Testing
import TestSupport

/// Work a hidden event triggers must not depend on hidden data (privacy review, session 19,
/// findings 5 and 2): counted where it happens, in healthd's status — store visits that long-running
/// queries made in a query slot, and watch computations — never timed.
///
/// A reader with no read permission holds every kind of long-running query of the types an event
/// touches: four observers, a statistics-collection watch and a long-running anchored query of
/// heart rate, an activity-summary watch. Then one event happens that it cannot see (another
/// source's save of a watched type, a read decision on a type its queries do not consult), and
/// the counts must move exactly as they move without it — not at all. Before the fix every
/// wake-up's re-check took a slot of the reader's, in its own queue before its next large query
/// (a hidden save told by the query's latency), and a decision on workouts recomputed the
/// collection when it allowed and not when it denied.
///
/// And a decision on the watched type itself must cost the same whatever it decides: one
/// recomputation, allowed or denied (with no other source's data the answer is the same).
///
/// About 15 s: one healthd per case, each event followed by 2 s in which nothing may happen.
@Suite(.timeLimit(.minutes(10))) struct HiddenEventWatchWorkEndToEndTests {
    static let reader = "org.test.hidden-event-reader"
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let energy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
    static let observers = 4
    /// How long healthd gets to do what an event makes it do; nothing it must not do can take longer.
    static let settle: Duration = .seconds(2)

    enum HiddenEvent: String, CaseIterable, CustomTestStringConvertible {
        case nothing = "nothing (the twin)"
        case heartRateSaved = "another source saves heart rate"
        case energySaved = "another source saves active energy"
        case workoutsAllowed = "the user allows reading workouts"
        case workoutsDenied = "the user denies reading workouts"
        var testDescription: String { rawValue }

        func happen(on broker: BrokerProcess) async throws {
            switch self {
            case .nothing: return
            case .heartRateSaved: try await Self.add(broker, ["heartRate", "71", "count/min"])
            case .energySaved: try await Self.add(broker, ["activeEnergyBurned", "12", "kcal"])
            case .workoutsAllowed: try await broker.set(HiddenEventWatchWorkEndToEndTests.reader, "read", HKWorkoutTypeIdentifier, allowed: true)
            case .workoutsDenied: try await broker.set(HiddenEventWatchWorkEndToEndTests.reader, "read", HKWorkoutTypeIdentifier, allowed: false)
            }
        }

        /// The user's own entry (`healthctl add`): a source the reader may not read.
        private static func add(_ broker: BrokerProcess, _ arguments: [String]) async throws {
            let start = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-600))
            let added = try await broker.healthctl(["add"] + arguments + ["--start", start])
            #expect(added.status == 0, "\(added)")
        }
    }

    /// healthd's counts of long-running work.
    struct Work: Equatable, CustomStringConvertible {
        var slotVisits: Int
        var computations: Int
        var description: String { "\(slotVisits) slot visits, \(computations) computations" }

        static func - (lhs: Work, rhs: Work) -> Work {
            Work(slotVisits: lhs.slotVisits - rhs.slotVisits, computations: lhs.computations - rhs.computations)
        }
    }

    /// A healthd with the reader's long-running queries open and answered once.
    final class World: Sendable {
        let broker: BrokerProcess
        let app: RawApp
        private let tasks: Mutex<[Task<Void, Never>]> = Mutex([])
        private let messages = Mutex<[String: Int]>([:])

        init(readerGrants: [(String, String)] = []) async throws {
            broker = try BrokerProcess()
            app = try await RawApp.install(HiddenEventWatchWorkEndToEndTests.reader, on: broker, grants: readerGrants)
            let heartRate = HiddenEventWatchWorkEndToEndTests.heartRate
            for index in 0..<HiddenEventWatchWorkEndToEndTests.observers {
                open("observer \(index)", .observeChanges, TypePredicateSpec(typeIdentifier: heartRate).wireBytes(), acknowledging: true)
            }
            let anchor = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 - 7 * 86_400)
            open("collection", .watchStatisticsCollection,
                 StatisticsCollectionSpec(statistics: StatisticsQuerySpec(typeIdentifier: heartRate, options: .discreteAverage),
                                          anchor: anchor, interval: StatisticsInterval(minutes: 60), timeZoneIdentifier: "UTC").wireBytes())
            open("summaries", .watchActivitySummaries, ActivitySummaryQuerySpec(timeZoneIdentifier: "UTC").wireBytes())
            open("anchored", .queryAnchored, AnchoredQuerySpec(typeIdentifier: heartRate, longRunning: true).wireBytes())
        }

        private func open(_ name: String, _ method: HealthStoreMethod, _ request: [UInt8], acknowledging: Bool = false) {
            let client = app.client
            let task = Task { [self] in
                do {
                    for try await payload in client.serverStream(method.rawValue, request) {
                        self.messages.withLock { $0[name, default: 0] += 1 }
                        if acknowledging, let update = try? ObserverDelivery(wire: payload) {
                            _ = try await client.unary(HealthStoreMethod.acknowledgeObserverUpdate.rawValue,
                                                       ObserverAcknowledgement(update, .handledAndCompleted).wireBytes())
                        }
                    }
                } catch {}
            }
            tasks.withLock { $0.append(task) }
        }

        /// Every query answered its first delivery (hang guard 120 s).
        func waitUntilAnswered() async throws -> Bool {
            let until = Date().addingTimeInterval(120)
            while Date() < until {
                if messages.withLock({ $0.count }) == HiddenEventWatchWorkEndToEndTests.observers + 3 { return true }
                try await Task.sleep(for: .milliseconds(20))
            }
            return false
        }

        var answered: [String: Int] { messages.withLock { $0 } }

        func work() async throws -> Work {
            let status = try await broker.healthctl(["status"])
            #expect(status.status == 0, "\(status)")
            var fields: [String: Int] = [:]
            for line in status.stdout.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, let value = Int(parts[1].trimmingCharacters(in: .whitespaces)) {
                    fields[String(parts[0])] = value
                }
            }
            return Work(slotVisits: fields["Watch slot visits"] ?? -1, computations: fields["Watch computations"] ?? -1)
        }

        /// What healthd did in `settle` after `event`.
        func work(after event: HiddenEvent) async throws -> Work {
            let before = try await work()
            try await event.happen(on: broker)
            try await Task.sleep(for: HiddenEventWatchWorkEndToEndTests.settle)
            return try await work() - before
        }

        func close() {
            for task in tasks.withLock({ $0 }) { task.cancel() }
            app.close()
            broker.stop()
        }
    }

    /// Each event against the twin, in the same world: the twin's wait first, then the event's.
    @Test(arguments: HiddenEvent.allCases.filter { $0 != .nothing })
    func aHiddenEventCostsTheReaderNothing(_ event: HiddenEvent) async throws {
        let world = try await World()
        defer { world.close() }
        try #require(try await world.waitUntilAnswered(), "the reader's queries never answered: \(world.answered)")
        let twin = try await world.work(after: .nothing)
        let hidden = try await world.work(after: event)
        #expect(twin == Work(slotVisits: 0, computations: 0), "with nothing happening: \(twin)")
        #expect(hidden == twin, "\(event): \(hidden); the twin: \(twin)")
        #expect(world.answered.values.allSatisfy { $0 == 1 }, "an update was sent: \(world.answered)")
    }

    /// A decision on the watched type itself, with no other source's data: allowed and denied
    /// cost the same (one recomputation of the collection: the grant record it consults changed)
    /// and send the same (nothing).
    @Test func aDecisionOnTheWatchedTypeCostsTheSameAllowedOrDenied() async throws {
        var costs: [Bool: Work] = [:]
        for allowed in [true, false] {
            let world = try await World()
            defer { world.close() }
            try #require(try await world.waitUntilAnswered(), "the reader's queries never answered: \(world.answered)")
            let before = try await world.work()
            try await world.broker.set(Self.reader, "read", Self.heartRate, allowed: allowed)
            try await Task.sleep(for: Self.settle)
            costs[allowed] = try await world.work() - before
            #expect(world.answered.values.allSatisfy { $0 == 1 }, "allowed \(allowed): an update was sent: \(world.answered)")
        }
        #expect(costs[true] == costs[false], "allowed: \(String(describing: costs[true])); denied: \(String(describing: costs[false]))")
    }
}
