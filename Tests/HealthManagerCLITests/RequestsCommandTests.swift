import Foundation
import HealthIPC
import HealthManagerCLI
import HealthModel
import HealthWire
import Synchronization
import Testing

/// `healthctl requests` against a fake healthd on a real admin socket.
@Suite(.timeLimit(.minutes(10))) struct RequestsCommandTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    static let prompt = AuthorizationPrompt(
        requestID: 7, appID: "com.example.sleep", appDisplayName: "Sleep Tracker",
        readUsageDescription: "Charts your nights.", shareUsageDescription: "Saves sleep.",
        readTypes: [heartRate, sleep], shareTypes: [sleep])

    /// A broker with `pending` prompts; `watch` is what WatchRequests streams before it hangs.
    static func broker(pending: [AuthorizationPrompt], watch: [(delay: Duration, prompt: AuthorizationPrompt)] = [])
        throws -> FakeManagerServer {
        try FakeManagerServer { call in
            switch HealthManagerMethod(rawValue: call.method) {
            case .listRequests:
                call.responder.respond(PromptList(pending).wireBytes())
            case .answerRequest:
                call.responder.respond(EmptyMessage().wireBytes())
            case .watchRequests:
                for (delay, prompt) in watch {
                    try? await Task.sleep(for: delay)
                    try? await call.responder.send(prompt.wireBytes())
                }
                try? await Task.sleep(for: .seconds(30))  // a watch stays open until cancelled
            default:
                call.responder.fail(RPCStatus(.unimplemented, call.method), streaming: false)
            }
        }
    }

    func answers(_ server: FakeManagerServer) throws -> [PromptAnswer] {
        try server.payloads(for: .answerRequest).map(PromptAnswer.init(wire:))
    }

    @Test func listsPendingPromptsAsATable() async throws {
        let server = try Self.broker(pending: [Self.prompt])
        defer { server.stop() }
        let outcome = await runHealthCtl(["requests", "--socket", server.socketPath])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == """
            ID  APP            APP ID             READ                        WRITE
             7  Sleep Tracker  com.example.sleep  Heart Rate, Sleep Analysis  Sleep Analysis

            """)
    }

    @Test func answersOneRequestFromFlags() async throws {
        let server = try Self.broker(pending: [Self.prompt])
        defer { server.stop() }
        let outcome = await runHealthCtl(["requests", "--socket", server.socketPath, "--id", "7", "--allow-read", "heart-rate"])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(try answers(server) == [PromptAnswer(requestID: 7, decisions: [
            GrantDecision(Self.heartRate, .read, .authorized), GrantDecision(Self.sleep, .read, .denied),
            GrantDecision(Self.sleep, .share, .denied),
        ])])
        #expect(outcome.output == "Request 7 (Sleep Tracker): allowed READ Heart Rate; denied READ Sleep Analysis, WRITE Sleep Analysis.\n")
    }

    @Test func unknownRequestIDSendsNothing() async throws {
        let server = try Self.broker(pending: [Self.prompt])
        defer { server.stop() }
        let outcome = await runHealthCtl(["requests", "--socket", server.socketPath, "--id", "8", "--allow-all"])
        #expect(outcome.exitCode == HealthCtlExitCode.dataError.rawValue)
        #expect(outcome.errors == "healthctl: request 8 is not pending (pending: 7); see `healthctl requests`\n")
        #expect(try answers(server).isEmpty)
    }

    @Test func answersInteractivelyFromInputLines() async throws {
        let server = try Self.broker(pending: [Self.prompt])
        defer { server.stop() }
        let outcome = await runHealthCtl(["requests", "--socket", server.socketPath, "--answer"], input: ["n", "y", "y"])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(try answers(server) == [PromptAnswer(requestID: 7, decisions: [
            GrantDecision(Self.heartRate, .read, .denied), GrantDecision(Self.sleep, .read, .authorized),
            GrantDecision(Self.sleep, .share, .authorized),
        ])])
        #expect(outcome.output.contains("Allow Sleep Tracker to READ Heart Rate? [y/N] "))
        #expect(outcome.output.contains("Allow Sleep Tracker to WRITE Sleep Analysis? [y/N] "))
    }

    @Test func waitReturnsWhenTheAwaitedRequestArrives() async throws {
        let later = AuthorizationPrompt(
            requestID: 9, appID: "com.example.run", appDisplayName: "Runner", readUsageDescription: "",
            shareUsageDescription: "Logs runs.", readTypes: [], shareTypes: [Self.heartRate])
        let server = try Self.broker(pending: [Self.prompt, later],
                                     watch: [(.zero, Self.prompt), (.milliseconds(50), later)])
        defer { server.stop() }
        let outcome = await runHealthCtl(["requests", "--socket", server.socketPath, "--wait", "--timeout", "20",
                                          "--id", "9", "--allow-share", "heartRate"])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(try answers(server) == [PromptAnswer(requestID: 9, decisions: [GrantDecision(Self.heartRate, .share, .authorized)])])
    }

    @Test func waitTimesOutWithItsOwnStatus() async throws {
        let server = try Self.broker(pending: [])
        defer { server.stop() }
        let outcome = await runHealthCtl(["requests", "--socket", server.socketPath, "--answer", "--wait", "--timeout", "0.2"])
        #expect(outcome.exitCode == HealthCtlExitCode.timedOut.rawValue)
        #expect(outcome.errors == "healthctl: no request arrived within 0.2 seconds\n")
    }
}
