import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Synchronization
import Testing
import TestSupport

/// One broker-wide large-query slot (as on two cores) is not one app's for a whole answer its
/// client keeps reading: after each message handed, a query gives the slot to another app's
/// waiting query and queues for it again (`QueryScheduler.takeTurn`; s19 availability review,
/// left open until session 21; s20 finding 5). Before, a victim's query waited for the rest of
/// an attacker's answer, each of whose messages may cost up to a statement budget.
///
/// The attacker (this process, speaking the protocol: `RawApp`) reads its answer as fast as it
/// comes; its predicate (32 metadata comparisons over rows of 256 KB of metadata) matches one
/// row in `spacing`, so each message of about three rows costs healthd about `3 × spacing` rows
/// of predicate (a few hundred ms, below `--statement-cpu-budget-ms`). The victim is a sandboxed
/// app (`SandboxedProtocolApp`) querying its own single sample of another type. Its answer must
/// arrive within a bound taken from this run's own figures: twice the attacker's median gap
/// between two messages (what one message costs) plus twice the victim's own query time alone —
/// and while the attacker received at most two messages. Without turns it waited for every
/// message the attacker had left (at least `remainingAtLeast`).
@Suite(.timeLimit(.minutes(10)), .serialized) struct SlotTurnsEndToEndTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let bodyMass = HKQuantityTypeIdentifier.bodyMass.rawValue
    static let attacker = "org.test.turns-attacker"
    static let victim = "org.test.turns-victim"
    /// One row in `spacing` matches the attacker's predicate.
    static let spacing = 6
    static let matching = 42
    static let rows = matching * spacing
    /// Messages the attacker must still have to receive when the victim asks: what the victim
    /// waited for without turns.
    static let remainingAtLeast = 6
    static let budgetMilliseconds = 3_000

    struct World: Sendable {
        let broker: BrokerProcess
        let attacker: RawApp
        let victim: SandboxedProtocolApp
    }

    static let world = Task { () throws -> World in
        let broker = try BrokerProcess(extraArguments: ["--large-queries-running", "1",
                                                        "--statement-cpu-budget-ms", "\(budgetMilliseconds)"])
        let attacker = try await RawApp.install(Self.attacker, on: broker, grants: [("share", steps), ("read", steps)])
        let filler = String(repeating: "x", count: 4_000)
        for first in stride(from: 0, to: rows, by: 8) {
            _ = try await attacker.save((first..<min(rows, first + 8)).map { index in
                // Key 63 of every `spacing`-th row is the one the predicate finds.
                let metadata = Dictionary(uniqueKeysWithValues: (0..<64).map { key in
                    (key == 63 && index % spacing == spacing - 1 ? "org.test.match" : "org.test.key\(key)", MetadataValue.string(filler))
                })
                let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
                return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(30),
                                    value: .quantity(Double(index), unit: "count"), metadata: metadata)
            })
        }
        let victim = try await SandboxedProtocolApp.install(Self.victim, on: broker, grants: [("share", bodyMass), ("read", bodyMass)])
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        _ = try await victim.save([SampleRecord(uuid: UUID(), typeIdentifier: bodyMass, startDate: start, endDate: start,
                                                value: .quantity(70, unit: "kg"))])
        return World(broker: broker, attacker: attacker, victim: victim)
    }

    /// 31 comparisons that hold nowhere, then the one that holds on every `spacing`-th row.
    static var expensive: SamplePredicate {
        let absent = (0..<SamplePredicate.maximumMetadataComparisons - 1).map {
            SamplePredicate.metadata(key: "org.test.absent\($0)", .compare(.equalTo, .string("nothing")))
        }
        return .or(absent + [.metadata(key: "org.test.match", .exists)])
    }

    /// The attacker's streaming query kinds: a sample query (streamed from inside a store
    /// callback), an anchored query (batches offered from inside the store, the wait outside),
    /// and a long-running anchored query's first delivery (store visits, each in a slot of its
    /// own). The last passed with the turn rule switched off too: its visit already ends at each
    /// of these ~1 MiB messages, which leave the socket not ready (`isReady` false) — it checks
    /// that turns keep it working, not that its visits take turns (`CallResponder.takesTurns`,
    /// for visits streaming small messages, is covered by reading only).
    enum Kind: String, CaseIterable, Sendable {
        typealias Outer = SlotTurnsEndToEndTests
        case samples, anchored, anchoredLongRunning

        var method: HealthStoreMethod { self == .samples ? .querySamples : .queryAnchored }

        var request: [UInt8] {
            switch self {
            case .samples: SampleQuerySpec(typeIdentifier: Outer.steps, predicate: Outer.expensive).wireBytes()
            case .anchored: AnchoredQuerySpec(typeIdentifier: Outer.steps, predicate: Outer.expensive).wireBytes()
            case .anchoredLongRunning:
                AnchoredQuerySpec(typeIdentifier: Outer.steps, predicate: Outer.expensive, longRunning: true).wireBytes()
            }
        }

        /// Samples in one message, and whether it ends the (first) delivery.
        func read(_ message: [UInt8]) throws -> (samples: Int, last: Bool) {
            switch self {
            case .samples: return (try SampleList(wire: message).samples.count, false)
            case .anchored, .anchoredLongRunning:
                let batch = try AnchoredQueryBatch(wire: message)
                return (batch.samples.count, batch.endOfDelivery)
            }
        }
    }

    /// The attacker's answer, read on a thread of its own that takes each message's arrival
    /// there, on CLOCK_MONOTONIC — as the victim's process times its own query (`timedQuery`).
    /// Timed by a consumer task of this test process instead, a CI run with the whole target in
    /// parallel recorded arrivals 8 ms apart that healthd had sent about 200 ms apart, and the
    /// victim's wait as four times its own (stop 37): the pool that ran both was busy, not healthd.
    final class AttackerReader: Sendable {
        private let arrivals = Mutex<[UInt64]>([])
        private let outcome = Mutex<Result<Int, RPCStatus>?>(nil)
        var instants: [UInt64] { arrivals.withLock { $0 } }
        var result: Result<Int, RPCStatus>? { outcome.withLock { $0 } }

        init(kind: Kind, socket: String) throws {
            let connection = FrameConnection(fd: try BrokerSocket.connect(path: socket))
            try connection.send(.request(1, kind.method.rawValue, kind.request))
            let thread = Thread { [self] in
                var received = 0
                var ending: Result<Int, RPCStatus>?
                _ = connection.readFrames { frame in
                    guard frame.callID == 1, ending == nil else { return }
                    switch frame.kind {
                    case .streamMessage:
                        let arrived = MonotonicClock.nanoseconds()
                        arrivals.withLock { $0.append(arrived) }
                        do {
                            let (samples, last) = try kind.read(frame.payload)
                            received += samples
                            // A long-running query's first delivery is its answer here.
                            if last { ending = .success(received) }
                        } catch {
                            ending = .failure(RPCStatus(.internal, "unreadable message: \(error)"))
                        }
                    case .endOfStream, .response:
                        if let status = frame.status, status.code != .ok { ending = .failure(status) } else { ending = .success(received) }
                    case .request, .cancel:
                        break
                    }
                    if ending != nil { shutdown(connection.fd, Int32(SHUT_RDWR)) }
                }
                connection.close()
                outcome.withLock { $0 = ending ?? .failure(RPCStatus(.unavailable, "healthd closed the connection")) }
            }
            thread.name = "slot-turns-attacker"
            thread.start()
        }

        func answer() async throws -> Int {
            while true {
                if let result { return try result.get() }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// The victim's query, timed in its own process: how long it took, and when it started and ended.
    static func victimQuery(_ victim: SandboxedProtocolApp) async throws -> (time: Duration, started: UInt64, ended: UInt64) {
        let (found, started, ended) = try await victim.timedQuery(SampleQuerySpec(typeIdentifier: bodyMass))
        #expect(found.count == 1)
        return (.nanoseconds(Int64(ended - started)), started, ended)
    }

    @Test(arguments: Kind.allCases) func aVictimWaitsForOneMessageOfAReadingAttackerNotItsWholeAnswer(kind: Kind) async throws {
        let world = try await Self.world.value
        // The victim alone, in this run: its query's own time.
        var alone = Duration.zero
        for _ in 0..<3 { alone = max(alone, try await Self.victimQuery(world.victim).time) }

        let attack = try AttackerReader(kind: kind, socket: world.broker.appSocket)
        while attack.instants.count < 2, attack.result == nil { try await Task.sleep(for: .milliseconds(5)) }
        let victim = try await Self.victimQuery(world.victim)
        let waited = victim.time
        let received = try await attack.answer()
        let instants = attack.instants
        let before = instants.filter { $0 <= victim.started }.count
        let during = instants.filter { $0 > victim.started && $0 <= victim.ended }.count
        #expect(received == Self.matching, "\(kind): the attacker's answer came whole")
        let left = instants.count - before
        if left < Self.remainingAtLeast {
            // Too few of the attacker's messages were left when the victim's query started to tell
            // one message's wait from the whole answer's: then the run cannot judge, and says so
            // rather than failing. Seen in full runs beside other suites, where the victim's
            // confined process started its query late: the long-running kind 2 left (session 21),
            // the anchored kind 3 (session 23); a quiet run has 9.
            withKnownIssue("too few attacker messages left to judge this run", isIntermittent: true) {
                Issue.record("\(kind): only \(left) attacker messages were left when the victim asked (of \(instants.count))")
            }
            return
        }
        let gaps = zip(instants.dropFirst(), instants).map { Duration.nanoseconds(Int64($0 - $1)) }.sorted()
        let message = gaps[gaps.count / 2]
        let bound = message * 2 + alone * 2
        let figures = "\(kind): victim \(waited) (alone \(alone)), attacker message \(message) (median of \(gaps.count) gaps), "
            + "\(during) attacker messages during the victim's query of \(instants.count - before) left"
        print("SlotTurns figures: \(figures)")
        #expect(waited <= bound, "the victim waited \(waited), past \(bound): \(figures)")
        #expect(during <= 2, "the attacker received \(during) messages while the victim waited: \(figures)")
        #expect(world.broker.isRunning)
    }
}
