import Foundation
import Testing

/// DESIGN.md §7.9 through the whole stack: what an app (e2e-client under health-sandbox) and
/// the user (healthctl) do shows up in `healthctl log` with the right actor, types and counts,
/// and `healthctl log verify` finds the chain intact.
@Suite(.timeLimit(.minutes(10)), .serialized) struct AccessLogEndToEndTests {
    let heartRate = "HKQuantityTypeIdentifierHeartRate"

    /// One line of `healthctl log --json`.
    struct LoggedAccess: Decodable, Equatable {
        let actor: String
        let app: String?
        let action: String
        let types: [String]
        let count: Int
    }

    func accessLog(_ broker: BrokerProcess, _ arguments: [String] = []) async throws -> [LoggedAccess] {
        let listed = try await broker.healthctl(["log", "--json"] + arguments)
        #expect(listed.status == 0, "\(listed)")
        return try listed.stdout.split(separator: "\n").map { line in
            try JSONDecoder().decode(LoggedAccess.self, from: Data(line.utf8))
        }
    }

    @Test func appAndManagerActionsAreLoggedAndTheChainVerifies() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.logged")
        async let request = broker.runApp(app, ["request", "--share", heartRate, "--read", heartRate])
        let pending = try await broker.healthctl(["requests", "--wait", "--timeout", "30"])
        #expect(pending.status == 0, "\(pending)")
        let answer = try await broker.healthctl(["requests", "--id", "1", "--allow-all"])
        #expect(answer.status == 0, "\(answer)")
        #expect(try await request.okValue == "requested")

        for (value, time) in [("72", 1_700_000_000), ("75", 1_700_000_060)] {
            let saved = try await broker.runApp(app, ["save", heartRate, value, "count/min", "\(time)", "\(time)"])
            #expect(saved.okValue != nil, "\(saved)")
        }
        let read = try await broker.runApp(app, ["query", heartRate, "--unit", "count/min"])
        #expect(read.samples.count == 2)
        let browsed = try await broker.healthctl(["samples", "heartRate", "--json"])
        #expect(browsed.status == 0, "\(browsed)")

        let entries = try await accessLog(broker)
        let expected = [
            LoggedAccess(actor: app, app: app, action: "request", types: [heartRate], count: 0),
            LoggedAccess(actor: "manager", app: app, action: "grant-change", types: [heartRate], count: 2),
            LoggedAccess(actor: app, app: app, action: "write", types: [heartRate], count: 1),
            LoggedAccess(actor: app, app: app, action: "write", types: [heartRate], count: 1),
            LoggedAccess(actor: app, app: app, action: "read", types: [heartRate], count: 2),
            LoggedAccess(actor: "manager", app: nil, action: "read", types: [heartRate], count: 2),
        ]
        // The request's entry is written when its call ends, which races with the answer's
        // entry; everything after the answer is in call order.
        #expect(Set(entries.prefix(2).map(\.action)) == ["request", "grant-change"], "\(entries)")
        #expect(entries.count == expected.count, "\(entries)")
        for entry in expected { #expect(entries.contains(entry), "missing \(entry) in \(entries)") }
        #expect(Array(entries.dropFirst(2)) == Array(expected.dropFirst(2)))

        // --app keeps what concerns the app, which the manager's browsing does not.
        #expect(try await accessLog(broker, ["--app", app]).count == 5)
        #expect(try await accessLog(broker, ["--limit", "1"]) == [expected[5]])

        let table = try await broker.healthctl(["log"])
        #expect(table.status == 0, "\(table)")
        #expect(table.stdout.contains("grant-change"))

        let verified = try await broker.healthctl(["log", "verify"])
        #expect(verified.status == 0, "\(verified)")
        #expect(verified.stdout == "intact: 6 entries\n", "\(verified)")
    }
}
