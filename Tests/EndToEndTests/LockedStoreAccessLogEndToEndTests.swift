import Foundation
import HealthIPC
import HealthModel
import HealthWire
import TestSupport
import Testing

/// The access log has no gap while the store is locked: a connection refused on the accept
/// thread (no installed app, or an app not allowed to connect directly) is journaled like every
/// other locked entry and is in `healthctl log` after the unlock, with the time it happened.
@Suite(.timeLimit(.minutes(10)), .serialized) struct LockedStoreAccessLogEndToEndTests {
    private let steps = HKQuantityTypeIdentifier.stepCount.rawValue

    /// One line of `healthctl log --json`.
    private struct LoggedEntry: Decodable {
        let time: String
        let actor: String
        let action: String
        let detail: String
    }

    private func expectSuccess(_ result: ProcessResult) {
        #expect(result.status == 0, "\(result)")
    }

    /// Connects from this process and makes one call, which the refusal of the connection fails.
    private func connectAndExpectRefusal(_ broker: BrokerProcess) async throws {
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        await #expect(throws: RPCStatus.self) {
            _ = try await client.unary(HealthStoreMethod.authorizationStatus.rawValue, TypeIdentifierMessage(steps).wireBytes())
        }
    }

    @Test func refusedConnectionsWhileLockedReachTheAccessLogWithTheirTimes() async throws {
        let broker = try BrokerProcess()
        let executable = Products.testProcessExecutable

        // 1. No installed app names this executable.
        expectSuccess(try await broker.healthctl(["lock"]))
        let firstStart = Date()
        try await connectAndExpectRefusal(broker)
        let firstEnd = Date()
        expectSuccess(try await broker.healthctl(["unlock"]))

        // 2. An installed app, not allowed to connect directly (a process claiming an identity
        //    it may not use this way). Installing is refused while locked, so it comes first.
        let app = try await broker.install(appID: "org.test.locked-refusals", executable: executable)
        expectSuccess(try await broker.healthctl(["lock"]))
        // The first refusal's entry has merged by now; a second lock journals the second one.
        try await Task.sleep(for: .milliseconds(20))
        let secondStart = Date()
        try await connectAndExpectRefusal(broker)
        let secondEnd = Date()
        try await Task.sleep(for: .milliseconds(20))
        expectSuccess(try await broker.healthctl(["unlock"]))

        let listed = try await broker.healthctl(["log", "--json"])
        expectSuccess(listed)
        let entries = try listed.stdout.split(separator: "\n").map { try JSONDecoder().decode(LoggedEntry.self, from: Data($0.utf8)) }
        let refused = entries.filter { $0.action == "refused" && $0.actor == AccessLogEntry.unidentifiedActor }
        let notInstalled = refused.first { $0.detail == "connection refused: no app installed for \(executable)" }
        let notDirect = refused.first { $0.detail == "connection refused: direct connections not allowed for \(app)" }
        #expect(notInstalled != nil, "the refusal of an uninstalled executable while locked is missing: \(listed.stdout)")
        #expect(notDirect != nil, "the refusal of a direct connection while locked is missing: \(listed.stdout)")
        // Each entry carries the time of the refusal, not of the merge.
        for (entry, start, end) in [(notInstalled, firstStart, firstEnd), (notDirect, secondStart, secondEnd)] {
            guard let entry else { continue }
            let time = try Date(entry.time, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            #expect(time >= start.addingTimeInterval(-0.001) && time <= end.addingTimeInterval(0.001),
                    "\(entry.detail) logged at \(entry.time), made between \(start) and \(end)")
        }
        expectSuccess(try await broker.healthctl(["log", "verify"]))
    }
}
