import Foundation
import HealthIPC
import HealthManagerCLI
import HealthModel
import HealthWire
import Testing

/// status, apps, grant, revoke and grants against a fake healthd on a real admin socket.
@Suite(.timeLimit(.minutes(10))) struct BrokerCommandsTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let steps = "HKQuantityTypeIdentifierStepCount"

    static func broker() throws -> FakeManagerServer {
        try FakeManagerServer { call in
            switch HealthManagerMethod(rawValue: call.method) {
            case .setGrants, .installApp:
                call.responder.respond(EmptyMessage().wireBytes())
            case .listGrants:
                guard let request = try? AppGrants(wire: call.payload), request.appID == "com.example.sleep" else {
                    call.responder.fail(RPCStatus(.notFound, "no app com.example.unknown is installed"), streaming: false)
                    return
                }
                call.responder.respond(GrantList([
                    GrantDecision(steps, .share, .denied), GrantDecision(heartRate, .read, .authorized),
                    GrantDecision(steps, .read, .notDetermined),
                ]).wireBytes())
            case .status:
                call.responder.respond(BrokerStatus(
                    storeDirectory: "/home/u/.local/share/openhealth", appSocket: "/run/user/1/openhealth/app.sock",
                    adminSocket: "/run/user/1/openhealth/admin.sock", installedApps: 2, pendingRequests: 1,
                    connectedApps: 0, sampleCount: 1234, version: "0.1.0",
                    service: .init(socketActivated: true, idleExitSeconds: 300, processID: 4321), storeBytes: 2_500_000,
                    confinement: .init(landlockABI: 7, seccompFiltered: true, peerInspector: .answering)).wireBytes())
            case .listSources:
                // A removed app whose samples were kept, and an installed one.
                call.responder.respond(SourceEntryList([
                    SourceEntry(appID: "com.example.old", name: "Old Tracker", installed: false, sampleCount: 1_234, orderedByUser: false),
                    SourceEntry(appID: "com.example.sleep", name: "Sleep Tracker", installed: true, sampleCount: 9, orderedByUser: false),
                ]).wireBytes())
            case .listApps:
                call.responder.respond(ManifestList([AppManifest(
                    id: "com.example.sleep", displayName: "Sleep Tracker", executable: "/usr/bin/sleep-tracker",
                    version: "1.2", readUsageDescription: "Charts your nights.")]).wireBytes())
            default:
                call.responder.fail(RPCStatus(.unimplemented, call.method), streaming: false)
            }
        }
    }

    @Test func grantAndRevokeSendOneDecisionPerType() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let granted = await runHealthCtl(["grant", "--socket", server.socketPath, "com.example.sleep", "read",
                                          "heartRate", "HKQuantityTypeIdentifierStepCount", "heart-rate"])
        #expect(granted.exitCode == 0, "\(granted.errors)")
        #expect(granted.output == "Allowed com.example.sleep to read Heart Rate, Step Count.\n")
        let revoked = await runHealthCtl(["revoke", "--socket", server.socketPath, "com.example.sleep", "share", "stepCount"])
        #expect(revoked.exitCode == 0, "\(revoked.errors)")
        let sent = try server.payloads(for: .setGrants).map(AppGrants.init(wire:))
        #expect(sent == [
            AppGrants(appID: "com.example.sleep", decisions: [
                GrantDecision(Self.heartRate, .read, .authorized), GrantDecision(Self.steps, .read, .authorized)]),
            AppGrants(appID: "com.example.sleep", decisions: [GrantDecision(Self.steps, .share, .denied)]),
        ])
    }

    @Test func grantsTableHasOneRowPerType() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = await runHealthCtl(["grants", "--socket", server.socketPath, "com.example.sleep"])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == """
            TYPE        READ     SHARE
            Heart Rate  allowed  not set
            Step Count  not set  denied

            """)
    }

    @Test func brokerRefusalIsReportedWithItsReason() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = await runHealthCtl(["grants", "--socket", server.socketPath, "com.example.unknown"])
        #expect(outcome.exitCode == HealthCtlExitCode.dataError.rawValue)
        #expect(outcome.errors == "healthctl: healthd could not list the grants of com.example.unknown: no app com.example.unknown is installed\n")
    }

    @Test func statusListsTheBrokersFacts() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = await runHealthCtl(["status", "--socket", server.socketPath])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        // healthctl records exports in the user's state folder; a machine that ran one shows it.
        let lastExport = ExportHistory.last().map { $0.date.formatted(date: .abbreviated, time: .shortened) } ?? "never"
        #expect(outcome.output == """
            Service:             running (pid 4321, socket-activated, exits after 300 s idle, restarts on demand)
            Confinement:         files walled in (Landlock ABI 7), seccomp filter, peer inspector answering
            healthd version:     0.1.0
            Store directory:     /home/u/.local/share/openhealth
            Store:               writable
            Locked:              no
            App socket:          /run/user/1/openhealth/app.sock
            Admin socket:        /run/user/1/openhealth/admin.sock
            Installed apps:      2
            Pending requests:    1
            Connected apps:      0
            Answers read again:  0
            Samples:             1234
            Store size:          2.5 MB
            Watch slot visits:   0
            Watch computations:  0
            Last backup/export:  \(lastExport)

            """)
    }

    @Test func appsListShowsWhichAccessEachAppExplains() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = await runHealthCtl(["apps", "list", "--socket", server.socketPath])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == """
            ID                 NAME           VERSION  READS  WRITES  DIRECT  NETWORK  EXECUTABLE              ENTITLEMENTS
            com.example.sleep  Sleep Tracker  1.2      yes    no      no      off      /usr/bin/sleep-tracker

            """)
    }

    /// `healthctl apps install` of `manifest`, written beside the fake healthd's socket.
    static func install(on server: FakeManagerServer, _ manifest: String) async throws -> CommandOutcome {
        let file = server.socketPath.replacingOccurrences(of: "admin.sock", with: "manifest.json")
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        return await runHealthCtl(["apps", "install", "--socket", server.socketPath, file])
    }

    @Test func appsInstallSendsTheValidatedManifest() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = try await Self.install(on: server, """
            {"id": "com.example.sleep", "displayName": "Sleep Tracker", "executable": "/usr/bin/sleep-tracker",
             "version": "1.2", "NSHealthShareUsageDescription": "Charts your nights."}
            """)
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == "Installed Sleep Tracker (com.example.sleep) version 1.2.\n")
        #expect(try server.payloads(for: .installApp).map(ManifestList.init(wire:)) == [ManifestList([AppManifest(
            id: "com.example.sleep", displayName: "Sleep Tracker", executable: "/usr/bin/sleep-tracker",
            version: "1.2", readUsageDescription: "Charts your nights.")])])
    }

    /// An id that still owns an earlier installation's samples (removed with --keep-data): the
    /// new app will read them as its own, so installing says how many and how to delete them.
    @Test func installingUnderAnIdThatOwnsKeptSamplesSaysSo() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = try await Self.install(on: server, """
            {"id": "com.example.old", "displayName": "Another Program", "executable": "/usr/bin/another",
             "version": "1", "NSHealthShareUsageDescription": "Reads."}
            """)
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == """
            Installed Another Program (com.example.old) version 1.
            Note: 1,234 samples saved under com.example.old by an earlier installation stay with this id, and this app \
            reads them as its own. If it is not the same program, delete them: healthctl delete --source com.example.old

            """)
    }

    /// A manifest whose displayName carries a terminal sequence (ESC) or a bidi override
    /// (U+202E) — text healthctl prints in consent prompts — is refused by `apps install` with the
    /// field and the character named, and nothing reaches healthd (session 17 red team, finding 3).
    @Test(arguments: ["\\u001b[8m", "\\u202e"])
    func appsInstallRefusesTerminalControlInTheDisplayName(sequence: String) async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = try await Self.install(on: server, """
            {"id": "com.example.steps", "displayName": "Step Counter to WRITE Step Count? [y/N] \(sequence)", \
            "executable": "/usr/bin/steps", "version": "1", "NSHealthShareUsageDescription": "Reads."}
            """)
        #expect(outcome.exitCode == HealthCtlExitCode.dataError.rawValue, "\(outcome.output)\(outcome.errors)")
        #expect(outcome.errors.contains("displayName must not hold control or bidirectional formatting characters"), "\(outcome.errors)")
        #expect(try server.payloads(for: .installApp).isEmpty, "the manifest was sent to healthd")
    }
}
