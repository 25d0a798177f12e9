import Foundation
import HealthIPC
import HealthWire
@testable import HealthKit
import Synchronization
import Testing

/// The lifecycle every query kind shares (`QueryKind.all`): a query runs once, `stop` ends its
/// call on the broker — seen there, by the real server side of the protocol, as a cancelled
/// handler task — and every error reaches a handler, except the quiet end of a stopped
/// long-running query.
@Suite(.timeLimit(.minutes(10))) struct QueryKindLifecycleTests {
    /// What the broker does with a query's call.
    enum Script: Sendable {
        /// Keeps the call open until the client cancels it.
        case hold
        /// Answers; a long-running query's call then stays open until cancelled.
        case answer
        /// Answers, then fails the call.
        case answerThenFail
        /// Fails the call at once.
        case fail
        /// Answers, then ends the call normally (the end of a long-running query's stream).
        case answerThenEnd
        /// Ends the call at once, having sent nothing.
        case endAtOnce
    }

    static let failure = HKError(.errorDatabaseInaccessible, "the store is locked")

    /// A fake healthd that plays `script` for the query's calls (observer acknowledgements are
    /// always accepted) and records what reached it and what the query's handlers reported.
    struct ScriptedBroker {
        let record: Record
        private let broker: FakeBroker

        init(_ kind: QueryKind, _ script: Script) throws {
            let record = Record()
            self.record = record
            broker = try FakeBroker { call in await record.serve(call, kind: kind, script: script) }
        }

        var store: HKHealthStore { broker.store }
        var calls: [String] { record.calls.withLock { $0 } }
        var cancelledCalls: Int { record.cancelledCalls.withLock { $0 } }
        var events: [String] { record.events.withLock { $0 } }
        func close() { broker.close() }
    }

    final class Record: Sendable {
        let calls = Mutex<[String]>([])
        let cancelledCalls = Mutex(0)
        let events = Mutex<[String]>([])

        func report(_ event: String) { events.withLock { $0.append(event) } }

        func serve(_ call: IncomingCall, kind: QueryKind, script: Script) async {
            if call.method == HealthStoreMethod.acknowledgeObserverUpdate.rawValue {
                call.responder.respond(EmptyMessage().wireBytes())
                return
            }
            calls.withLock { $0.append(call.method) }
            let streaming = if case .stream = kind.answer { true } else { false }
            if script == .fail { return call.responder.fail(RPCStatus(failure), streaming: streaming) }
            if script == .endAtOnce { return call.responder.finish() }
            if script != .hold {
                switch kind.answer {
                case let .unary(reply):
                    return call.responder.respond(reply)
                case let .stream(messages):
                    for message in messages { try? await call.responder.send(message) }
                }
                if script == .answerThenFail { return call.responder.fail(RPCStatus(failure), streaming: streaming) }
                if script == .answerThenEnd { return call.responder.finish() }
                if !kind.longRunning { return call.responder.finish() }
            }
            try? await Task.sleep(for: .seconds(30))
            if Task.isCancelled { cancelledCalls.withLock { $0 += 1 } }
            call.responder.finish()
        }
    }

    /// Waits until the handlers reported `expected`, then a little longer to catch any extra report.
    func expectEvents(_ broker: ScriptedBroker, _ expected: [String]) async throws {
        #expect(try await eventually { broker.events.count >= expected.count }, "\(broker.events)")
        try await Task.sleep(for: .milliseconds(50))
        #expect(broker.events == expected)
    }

    @Test(arguments: QueryKind.all)
    func stoppingWhileTheBrokerWorksCancelsTheCallThere(_ kind: QueryKind) async throws {
        let broker = try ScriptedBroker(kind, .hold)
        defer { broker.close() }
        let query = kind.make(broker.record.report)
        broker.store.execute(query)
        #expect(try await eventually { broker.calls == [kind.method.rawValue] })
        broker.store.stop(query)
        #expect(try await eventually { broker.cancelledCalls == 1 })
        // A query still waiting for its first answer reports the stop; an observer (whose every
        // update is a change notice, none owed) ends quietly, as in HealthKit.
        try await expectEvents(broker, kind.method == .observeChanges ? [] : ["error errorUserCanceled"])
    }

    @Test(arguments: QueryKind.all)
    func aSecondExecuteIsRefusedAndNeverReachesTheBroker(_ kind: QueryKind) async throws {
        let broker = try ScriptedBroker(kind, .answer)
        defer { broker.close() }
        let query = kind.make(broker.record.report)
        broker.store.execute(query)
        #expect(try await eventually { broker.events == ["results"] })
        broker.store.execute(query)
        try await expectEvents(broker, ["results", "error errorInvalidArgument"])
        #expect(broker.calls == [kind.method.rawValue])
        broker.store.stop(query)
    }

    @Test(arguments: QueryKind.all)
    func stoppingAfterTheFirstAnswerReportsNothingMore(_ kind: QueryKind) async throws {
        let broker = try ScriptedBroker(kind, .answer)
        defer { broker.close() }
        let query = kind.make(broker.record.report)
        broker.store.execute(query)
        #expect(try await eventually { broker.events == ["results"] })
        broker.store.stop(query)
        if kind.longRunning {
            #expect(try await eventually { broker.cancelledCalls == 1 })
        }
        try await expectEvents(broker, ["results"])
    }

    @Test(arguments: QueryKind.all)
    func aBrokerErrorReachesTheHandler(_ kind: QueryKind) async throws {
        let broker = try ScriptedBroker(kind, .fail)
        defer { broker.close() }
        broker.store.execute(kind.make(broker.record.report))
        try await expectEvents(broker, ["error errorDatabaseInaccessible"])
    }

    @Test(arguments: QueryKind.all.filter(\.longRunning))
    func anErrorAfterTheFirstAnswerReachesTheUpdateHandler(_ kind: QueryKind) async throws {
        let broker = try ScriptedBroker(kind, .answerThenFail)
        defer { broker.close() }
        broker.store.execute(kind.make(broker.record.report))
        try await expectEvents(broker, ["results", "error errorDatabaseInaccessible"])
    }

    @Test(arguments: QueryKind.all.filter(\.longRunning))
    func aLongRunningStreamThatEndsByItselfIsReportedAsAnError(_ kind: QueryKind) async throws {
        let broker = try ScriptedBroker(kind, .answerThenEnd)
        defer { broker.close() }
        broker.store.execute(kind.make(broker.record.report))
        try await expectEvents(broker, ["results", "error unknownError"])
    }

    @Test(arguments: QueryKind.all.filter { if case .stream = $0.answer { true } else { false } })
    func aStreamEndingWithoutAnAnswerIsReportedUnlessEmptyMeansNone(_ kind: QueryKind) async throws {
        let broker = try ScriptedBroker(kind, .endAtOnce)
        defer { broker.close() }
        broker.store.execute(kind.make(broker.record.report))
        try await expectEvents(broker, [kind.anEmptyStreamIsAnAnswer ? "results" : "error unknownError"])
    }

    @Test(arguments: QueryKind.all)
    func stoppingAQueryBeforeItRunsDoesNotPreventRunningIt(_ kind: QueryKind) async throws {
        let broker = try ScriptedBroker(kind, .answer)
        defer { broker.close() }
        let query = kind.make(broker.record.report)
        broker.store.stop(query)
        broker.store.execute(query)
        try await expectEvents(broker, ["results"])
        broker.store.stop(query)
    }
}
