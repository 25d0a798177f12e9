import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Synchronization
import Testing
import TestSupport

/// One app's deletions by predicate cannot take the store's readers from everyone else
/// (session 20 availability review, finding 2). A deletion by predicate selects each chunk's
/// rows on a store reader, running the app's predicate there for up to the statement budget.
/// It was a cheap call, outside the query slots, so one app ran 64 at once: they took every
/// reader of the pool (five on two cores), the other 59 queued for one, and so did every other
/// app's cheap read and the manager's — blocking the shared pool's threads, after which healthd
/// answered nothing (a victim's cheap read waited 175.6 s). Now a deletion by predicate is a
/// large query (`MethodTable.cost`): it runs in the app's query slot, one at a time per app, and
/// its reader is one the slots account for (`BrokerLimits.storeReaders`).
///
/// The attacker — this test process, connecting directly — saved 40 steps samples with the
/// largest metadata a save allows and sends 64 deletions at once over two connections, each by
/// the costliest predicate healthd decodes, matching nothing (so every deletion scans every
/// row). Meanwhile a victim, a separate sandboxed process with its own app id, reads a
/// characteristic (a cheap call that takes a reader on the shared pool), and the manager runs
/// `healthctl status`, one after the other.
///
/// The bound is derived in the same run, never an absolute time: the victim's slowest call with
/// no attack (`quiet`), and one such deletion alone, from request to reply (`oneDeletion`). A
/// victim shares the two cores with the deletion running, and may at worst wait for one
/// (a reader taken as it arrives): each call ≤ 3 × quiet + 2 × oneDeletion + 500 ms. Before the
/// fix, a call waited for most of the 64 deletions. The attack must really run throughout: some
/// deletions are still unanswered when the victim's last call returns.
@Suite(.timeLimit(.minutes(10)), .serialized) struct MatchingDeletionSchedulingEndToEndTests {
    static let attacker = "org.test.deletion-attacker"
    static let victim = "org.test.deletion-victim"
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let rows = 40
    static let deletions = 64
    static let rounds = 8

    /// The attack's deletions: how many were answered, and how those that failed did.
    final class Tally: Sendable {
        let answered = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
    }

    struct Round: Sendable {
        var read: Duration
        var status: Duration
    }

    @Test func manyDeletionsByPredicateDelayAnotherAppsReadAndTheManagerByAtMostOneDeletion() async throws {
        let broker = try BrokerProcess()  // the default limits: on two cores, five store readers
        defer { broker.stop() }
        let attacker = try await RawApp.install(Self.attacker, on: broker, grants: [("share", Self.steps), ("read", Self.steps)])
        defer { attacker.close() }
        let filler = String(repeating: "x", count: 4_000)
        let metadata = Dictionary(uniqueKeysWithValues: (0..<64).map { ("org.test.key\($0)", MetadataValue.string(filler)) })
        for first in stride(from: 0, to: Self.rows, by: 8) {
            _ = try await attacker.save((first..<first + 8).map { index in
                let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
                return SampleRecord(uuid: UUID(), typeIdentifier: Self.steps, startDate: start, endDate: start.addingTimeInterval(30),
                                    value: .quantity(Double(index), unit: "count"), metadata: metadata)
            })
        }
        let deletion = MatchingDeletion(typeIdentifier: Self.steps, predicate: StatementBudgetEndToEndTests.expensive(matching: false))

        let victim = try await ServedVictim.start(Self.victim, on: broker)
        for _ in 0..<3 { _ = try await Self.victimRound(victim, broker) }

        // The two references, measured now, on this machine as loaded as it is.
        var quiet: [Round] = []
        for _ in 0..<Self.rounds { quiet.append(try await Self.victimRound(victim, broker)) }
        let clock = ContinuousClock()
        let started = clock.now
        #expect(await attacker.failure(.deleteMatching, deletion) == nil, "one deletion alone failed")
        let oneDeletion = clock.now - started

        // The attack: 64 deletions at once, 32 on each of two connections (a connection's limit).
        let connections = try (0..<2).map { _ in try RPCClient.connect(path: broker.appSocket) }
        defer { connections.forEach { $0.close() } }
        let tally = Tally()
        let attack = (0..<Self.deletions).map { index in
            Task { [connection = connections[index % 2]] in
                do {
                    _ = try await connection.unary(HealthStoreMethod.deleteMatching.rawValue, deletion.wireBytes())
                } catch {
                    tally.failures.withLock { $0.append("\(error)") }
                }
                tally.answered.add(1, ordering: .relaxed)
            }
        }
        try await Task.sleep(for: .seconds(1))
        var attacked: [Round] = []
        for _ in 0..<Self.rounds { attacked.append(try await Self.victimRound(victim, broker)) }
        let unanswered = Self.deletions - tally.answered.load(ordering: .relaxed)
        for task in attack { await task.value }
        let failures = tally.failures.withLock { $0 }

        let bound = { (quiet: Duration) in quiet * 3 + oneDeletion * 2 + .milliseconds(500) }
        let readBound = bound(quiet.map(\.read).max() ?? .zero)
        let statusBound = bound(quiet.map(\.status).max() ?? .zero)
        print("MatchingDeletionScheduling: one deletion alone \(oneDeletion); quiet slowest read \(quiet.map(\.read).max() ?? .zero) "
              + "status \(quiet.map(\.status).max() ?? .zero); attacked slowest read \(attacked.map(\.read).max() ?? .zero) "
              + "status \(attacked.map(\.status).max() ?? .zero); bounds \(readBound) / \(statusBound); "
              + "\(unanswered) of \(Self.deletions) deletions unanswered after the victim's last call; failures \(failures)")
        #expect(unanswered > 0, "the attack did not run throughout the victim's calls")
        for round in attacked {
            #expect(round.read <= readBound, "the victim's read: \(attacked.map(\.read))")
            #expect(round.status <= statusBound, "healthctl status: \(attacked.map(\.status))")
        }
        // Each deletion ran to its end: none refused for want of a reader or a thread.
        #expect(failures.isEmpty, "\(failures)")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
        _ = await victim.finish()
    }

    /// The victim reads a characteristic (cheap: a store reader on the shared pool), then the
    /// manager asks for healthd's status; how long each took, the process start included.
    static func victimRound(_ session: ProbeClientSession, _ broker: BrokerProcess) async throws -> Round {
        let clock = ContinuousClock()
        let request = TypeIdentifierMessage(HKCharacteristicTypeIdentifier.dateOfBirth.rawValue)
        let readStarted = clock.now
        let read = try await session.run("unary \(HealthStoreMethod.getCharacteristic.rawValue) \(ServedVictim.hex(request.wireBytes()))",
                                         timeout: 300)
        let readTook = clock.now - readStarted
        #expect(read.contains { $0.hasPrefix("reply ") }, "the victim's read: \(read)")
        let statusStarted = clock.now
        let status = try await broker.healthctl(["status"])
        let statusTook = clock.now - statusStarted
        #expect(status.status == 0, "healthctl status: \(status)")
        return Round(read: readTook, status: statusTook)
    }
}
