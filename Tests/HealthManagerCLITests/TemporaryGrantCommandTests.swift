import Foundation
import HealthIPC
import HealthManagerCLI
import HealthModel
import HealthWire
import Testing

/// `healthctl grant … --for/--window` and how `healthctl grants` shows temporary grants,
/// against a fake healthd on a real admin socket.
@Suite(.timeLimit(.minutes(10))) struct TemporaryGrantCommandTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let expiry = Date(timeIntervalSince1970: 1_714_552_200)  // 2024-05-01 08:30:00 UTC

    static func broker() throws -> FakeManagerServer {
        try FakeManagerServer { call in
            switch HealthManagerMethod(rawValue: call.method) {
            case .setGrants:
                call.responder.respond(EmptyMessage().wireBytes())
            case .listGrants:
                call.responder.respond(GrantList([
                    GrantDecision(heartRate, .read, .authorized, limits: GrantLimits(dataWindow: 30 * 86_400, expiry: expiry)),
                    GrantDecision(heartRate, .share, .authorized, limits: GrantLimits(expiry: expiry)),
                    GrantDecision(steps, .read, .denied, limits: GrantLimits(expiry: expiry)),
                    GrantDecision(steps, .share, .authorized),
                ]).wireBytes())
            default:
                call.responder.fail(RPCStatus(.unimplemented, call.method), streaming: false)
            }
        }
    }

    @Test func grantSendsTheWindowAndAnExpiryThatLongFromNow() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let before = Date()
        let outcome = await runHealthCtl(["grant", "--socket", server.socketPath, "com.example.coach", "read", "heartRate",
                                          "--window", "30d", "--for", "8h"])
        let after = Date()
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == "Allowed com.example.coach to read Heart Rate. Data from the last 30 days only. Expires in 8 hours.\n")
        let sent = try #require(try server.payloads(for: .setGrants).map(AppGrants.init(wire:)).first?.decisions.first)
        #expect(sent.limits.dataWindow == TimeInterval(30 * 86_400))
        let expiry = try #require(sent.limits.expiry)
        #expect(expiry >= before.addingTimeInterval(8 * 3600).addingTimeInterval(-0.001))
        #expect(expiry <= after.addingTimeInterval(8 * 3600).addingTimeInterval(0.001))
    }

    @Test func grantsShowsWindowsExpiriesAndExpiredGrants() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = await runHealthCtl(["grants", "--socket", server.socketPath, "com.example.coach"])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == """
            TYPE        READ                                              SHARE
            Heart Rate  allowed, last 30 days, until 2024-05-01 08:30:00  allowed, until 2024-05-01 08:30:00
            Step Count  denied (expired 2024-05-01 08:30:00)              allowed

            """)
    }

    @Test(arguments: [
        (["grant", "com.example.x", "share", "heartRate", "--window", "30d"], "--window applies to read access only"),
        (["grant", "com.example.x", "read", "heartRate", "--for", "8"], "--for"),
        (["grant", "com.example.x", "read", "heartRate", "--for", "0h"], "--for"),
        (["grant", "com.example.x", "read", "heartRate", "--window", "3mo"], "--window"),
    ])
    func refused(arguments: [String], message: String) async {
        let outcome = await runHealthCtl(arguments + ["--socket", "/nonexistent/admin.sock"])
        #expect(outcome.exitCode == HealthCtlExitCode.usage.rawValue, "\(outcome.errors)")
        #expect(outcome.errors.contains(message), "\(outcome.errors)")
    }

    @Test(arguments: [("90s", 90.0, "90 seconds"), ("45m", 2700, "45 minutes"), ("1h", 3600, "1 hour"),
                      ("3d", 259_200, "3 days"), ("2w", 1_209_600, "2 weeks")])
    func durationsParse(text: String, seconds: TimeInterval, words: String) throws {
        let duration = try #require(GrantDuration(argument: text))
        #expect(duration.timeInterval == seconds)
        #expect(duration.description == words)
    }
}
