import Foundation
import HealthIPC
import HealthManagerCLI
import HealthModel
import HealthWire
import Testing

/// `healthctl log` and `healthctl log verify` against a fake healthd.
@Suite(.timeLimit(.minutes(10))) struct LogCommandTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let start = try! Date("2024-05-01T08:30:00Z", strategy: .iso8601)

    static let entries = [
        AccessLogEntry(sequence: 7, date: start, actor: "manager", appID: "com.example.run", action: "grant-change",
                       types: [steps], count: 1, detail: "1 authorized, 0 denied, 0 cleared"),
        AccessLogEntry(sequence: 8, date: start.addingTimeInterval(5), actor: "com.example.run",
                       appID: "com.example.run", action: "write", types: [steps], count: 12, detail: ""),
    ]

    /// Answers ListAccessLog with `entries` as healthd streams them (newest page first: here one
    /// entry a frame, newest first) and VerifyAccessLog with `verification`.
    static func broker(verification: AccessLogVerification = .intact(entries: 8)) throws -> FakeManagerServer {
        try FakeManagerServer { call in
            switch call.method {
            case HealthManagerMethod.listAccessLog.rawValue:
                for entry in entries.reversed() { try? await call.responder.send(AccessLogPage([entry]).wireBytes()) }
                call.responder.finish()
            case HealthManagerMethod.verifyAccessLog.rawValue:
                call.responder.respond(AccessLogVerificationMessage(verification).wireBytes())
            default:
                call.responder.fail(RPCStatus(.unimplemented, call.method), streaming: false)
            }
        }
    }

    @Test func tableShowsOneRowPerEntryAndTheQueryCarriesTheFilters() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = await runHealthCtl(["log", "--socket", server.socketPath, "--app", "com.example.run", "--limit", "2"])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == """
            #  TIME                 ACTOR            ACTION        TYPES       COUNT  DETAIL
            7  2024-05-01 08:30:00  manager          grant-change  Step Count      1  com.example.run: 1 authorized, 0 denied, 0 cleared
            8  2024-05-01 08:30:05  com.example.run  write         Step Count     12

            """)
        let query = try AccessLogQuery(wire: try #require(server.payloads(for: .listAccessLog).first))
        #expect(query == AccessLogQuery(appID: "com.example.run", limit: 2))
    }

    /// redteam23 F1, rows kept from before the fix: an app an older version installed as
    /// `manager` read, and the user browsed. The two rows differ: the app's names it in DETAIL.
    @Test func anOldRowOfAnAppNamedManagerDoesNotReadAsTheUsers() async throws {
        let rows = [
            AccessLogEntry(sequence: 5, date: Self.start, actor: "manager", appID: "manager", action: "read",
                           types: [Self.steps], count: 1, detail: ""),
            AccessLogEntry(sequence: 6, date: Self.start, actor: "manager", appID: nil, action: "read",
                           types: [Self.steps], count: 1, detail: ""),
        ]
        let server = try FakeManagerServer { call in
            for entry in rows.reversed() { try? await call.responder.send(AccessLogPage([entry]).wireBytes()) }
            call.responder.finish()
        }
        defer { server.stop() }
        let outcome = await runHealthCtl(["log", "--socket", server.socketPath])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == """
            #  TIME                 ACTOR    ACTION  TYPES       COUNT  DETAIL
            5  2024-05-01 08:30:00  manager  read    Step Count      1  manager
            6  2024-05-01 08:30:00  manager  read    Step Count      1

            """)
    }

    @Test func jsonPrintsOneObjectPerEntry() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = await runHealthCtl(["log", "--socket", server.socketPath, "--json"])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.last == """
            {"action":"write","actor":"com.example.run","app":"com.example.run","count":12,"detail":"","sequence":8,\
            "time":"2024-05-01T08:30:05.000Z","types":["\(Self.steps)"]}
            """)
    }

    @Test func verifyReportsAnIntactLog() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = await runHealthCtl(["log", "verify", "--socket", server.socketPath])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == "intact: 8 entries\n")
    }

    @Test func verifyNamesTheFirstDamagedEntryAndFails() async throws {
        let server = try Self.broker(verification: .damaged(AccessLogDamage(sequence: 3, kind: .missingEntry)))
        defer { server.stop() }
        let outcome = await runHealthCtl(["log", "verify", "--socket", server.socketPath])
        #expect(outcome.exitCode == HealthCtlExitCode.dataError.rawValue)
        #expect(outcome.errors == "healthctl: the access log is damaged: entry 3 is missing (deleted)\n")
    }

    @Test func aLimitBelowOneIsAUsageError() async {
        let outcome = await runHealthCtl(["log", "--limit", "0"])
        #expect(outcome.exitCode == HealthCtlExitCode.usage.rawValue)
    }
}
