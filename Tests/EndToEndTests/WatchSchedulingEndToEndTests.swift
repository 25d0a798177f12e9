import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Synchronization
import Testing
import TestSupport

/// One app's watch computations cannot cost another app more than one computation's wait
/// (ARCHITECTURE.md "Scheduling: one choke point for work that grows with the data").
///
/// An attacker — this test process, connecting directly — stores 15,000 steps one minute apart
/// and opens 20 statistics-collection watches of them (a collection of 15,000 intervals each),
/// then saves one step every 50 ms, so each of its saves wakes all 20 watches to compute again.
/// Meanwhile a victim, a separate sandboxed process with its own app id, saves a heart-rate
/// sample (a unary call) and queries its heart rate (a large query of five samples), one after the
/// other. Before the scheduling fix, every watch computed on the shared pool at once: the pool's
/// threads (one per core) were all busy with the attacker's computations, and the victim's query
/// waited for most of them.
///
/// The bound is derived in the same run, never an absolute time that flakes under load: the
/// victim's p95 with no attack (`quiet`), and the time one watch of 15,000 intervals takes alone
/// from its request to its whole first delivery (`oneComputation`). A victim's call may wait for
/// the computation running when it arrives (the scheduler gives the next slot to the next app in
/// turn), and the machine is shared with that computation: so p95 ≤ 2 × quiet + 2 × oneComputation
/// + 250 ms. The attack must also really be running: its watches computed at least
/// `minimumRecomputations` updates meanwhile.
///
/// About 40 s, most of it the attacker's 15,000 samples and its 20 initial collections.
@Suite(.timeLimit(.minutes(10)), .serialized) struct WatchSchedulingEndToEndTests {
    static let attacker = "org.test.watch-attacker"
    static let victim = "org.test.watch-victim"
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let intervals = 15_000
    static let watches = 20
    static let rounds = 20
    static let minimumRecomputations = 10
    static let intervalStart = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60
                                    - Double(intervals + 60) * 60)

    static var watchSpec: StatisticsCollectionSpec {
        StatisticsCollectionSpec(statistics: StatisticsQuerySpec(typeIdentifier: steps, options: .cumulativeSum),
                                 anchor: intervalStart, interval: StatisticsInterval(minutes: 1), timeZoneIdentifier: "UTC")
    }

    /// The attacker's watches: each counts the deliveries it completed.
    final class Watches: Sendable {
        let completed = Mutex<[Int]>([])
        private let tasks = Mutex<[Task<Void, Never>]>([])

        init(count: Int, on client: RPCClient) {
            completed.withLock { $0 = Array(repeating: 0, count: count) }
            let spec = WatchSchedulingEndToEndTests.watchSpec.wireBytes()
            for index in 0..<count {
                let task = Task { [self] in
                    do {
                        for try await message in client.serverStream(HealthStoreMethod.watchStatisticsCollection.rawValue, spec) {
                            if try StatisticsCollectionDelivery(wire: message).endOfDelivery {
                                completed.withLock { $0[index] += 1 }
                            }
                        }
                    } catch {}
                }
                tasks.withLock { $0.append(task) }
            }
        }

        var total: Int { completed.withLock { $0.reduce(0, +) } }
        var allDelivered: Bool { completed.withLock { $0.allSatisfy { $0 >= 1 } } }

        func stop() { for task in tasks.withLock({ $0 }) { task.cancel() } }
    }

    struct Round: Sendable {
        var save: Duration
        var query: Duration
    }

    @Test func anAppsWatchesRecomputingDelayAnotherAppsCallsByAtMostOneComputation() async throws {
        let broker = try BrokerProcess(extraArguments: ["--large-queries-running", "1"])
        defer { broker.stop() }
        let attacker = try await RawApp.install(Self.attacker, on: broker, grants: [("share", Self.steps), ("read", Self.steps)])
        defer { attacker.close() }
        let samples = (0..<Self.intervals).map { minute in
            let start = Self.intervalStart.addingTimeInterval(Double(minute) * 60)
            return SampleRecord(uuid: UUID(), typeIdentifier: Self.steps, startDate: start, endDate: start.addingTimeInterval(30),
                                value: .quantity(1, unit: "count"))
        }
        for part in stride(from: 0, to: Self.intervals, by: 10_000) {  // at most 10,000 a save
            _ = try await attacker.save(Array(samples[part..<min(part + 10_000, Self.intervals)]))
        }

        let client = Products.path("leak-probe-client")
        _ = try await broker.install(appID: Self.victim, executable: client)
        for access in ["share", "read"] { try await broker.set(Self.victim, access, Self.heartRate, allowed: true) }
        let victim = try ProbeClientSession(Products.path("health-sandbox"), ["run", Self.victim, "--socket", broker.adminSocket, "--", client])
        for _ in 0..<4 { _ = try await Self.victimRound(victim) }

        // The two references, measured now, on this machine as loaded as it is.
        var quiet: [Round] = []
        for _ in 0..<Self.rounds { quiet.append(try await Self.victimRound(victim)) }
        let clock = ContinuousClock()
        let watchClient = try RPCClient.connect(path: broker.appSocket)
        defer { watchClient.close() }
        let started = clock.now
        let one = Watches(count: 1, on: watchClient)
        try #require(await Self.waitUntil { one.allDelivered }, "one watch never delivered")
        let oneComputation = clock.now - started
        one.stop()

        // The attack: 20 watches, then a save every 50 ms, each waking all of them.
        let watches = Watches(count: Self.watches, on: watchClient)
        defer { watches.stop() }
        try #require(await Self.waitUntil { watches.allDelivered }, "the attacker's watches never delivered")
        let before = watches.total
        let saving = Task {
            var minute = 0
            while !Task.isCancelled {
                let start = Self.intervalStart.addingTimeInterval(Double(minute % Self.intervals) * 60 + 40)
                _ = try? await attacker.save([SampleRecord(uuid: UUID(), typeIdentifier: Self.steps, startDate: start,
                                                           endDate: start.addingTimeInterval(5), value: .quantity(1, unit: "count"))])
                minute += 7
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        try await Task.sleep(for: .seconds(1))
        var attacked: [Round] = []
        for _ in 0..<Self.rounds { attacked.append(try await Self.victimRound(victim)) }
        saving.cancel()
        let recomputed = watches.total - before

        let bound = { (quiet: Duration) in quiet * 2 + oneComputation * 2 + .milliseconds(250) }
        let saveBound = bound(Self.p95(quiet.map(\.save)))
        let queryBound = bound(Self.p95(quiet.map(\.query)))
        print("WatchScheduling: one watch of \(Self.intervals) intervals alone \(oneComputation); "
              + "victim p95 quiet save \(Self.p95(quiet.map(\.save))) query \(Self.p95(quiet.map(\.query))); "
              + "attacked save \(Self.p95(attacked.map(\.save))) query \(Self.p95(attacked.map(\.query))); "
              + "bounds \(saveBound) / \(queryBound); \(recomputed) updates computed meanwhile")
        #expect(recomputed >= Self.minimumRecomputations, "the attack did not run: \(recomputed) updates")
        #expect(Self.p95(attacked.map(\.save)) <= saveBound, "the victim's save: \(attacked.map(\.save))")
        #expect(Self.p95(attacked.map(\.query)) <= queryBound, "the victim's query: \(attacked.map(\.query))")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
        _ = await victim.finish()
    }

    /// The victim saves one heart-rate sample and queries its heart rate; how long each took.
    static func victimRound(_ session: ProbeClientSession) async throws -> Round {
        let clock = ContinuousClock()
        let start = Date().addingTimeInterval(-120)
        let sample = SampleRecord(uuid: UUID(), typeIdentifier: heartRate, startDate: start, endDate: start,
                                  value: .quantity(70, unit: "count/min"))
        let saveStarted = clock.now
        let save = try await session.run("unary \(HealthStoreMethod.save.rawValue) \(ServedVictim.hex(SampleList([sample]).wireBytes()))",
                                         timeout: 120)
        let saveTook = clock.now - saveStarted
        #expect(save.contains { $0.hasPrefix("reply ") }, "the victim's save: \(save)")
        let query = SampleQuerySpec(typeIdentifier: heartRate, limit: 5)
        let queryStarted = clock.now
        let answer = try await session.run("stream \(HealthStoreMethod.querySamples.rawValue) \(ServedVictim.hex(query.wireBytes()))",
                                           timeout: 120)
        let queryTook = clock.now - queryStarted
        #expect(answer.contains("end"), "the victim's query: \(answer)")
        return Round(save: saveTook, query: queryTook)
    }

    /// The 95th percentile (nearest rank) of `durations`.
    static func p95(_ durations: [Duration]) -> Duration {
        let sorted = durations.sorted()
        guard !sorted.isEmpty else { return .zero }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
    }

    /// Polls `condition` (hang guard 120 s).
    static func waitUntil(_ condition: () -> Bool) async -> Bool {
        let until = Date().addingTimeInterval(120)
        while Date() < until {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
