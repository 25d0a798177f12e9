import Foundation
import Glibc
import Testing
import TestSupport

/// healthd started the way systemd starts it (socket activation, `SocketActivator` holding the
/// sockets and running the real `systemd-socket-activate`), with no systemd running: it serves
/// apps and healthctl on inherited sockets, exits when idle, and the next connection — queued
/// meanwhile in the held socket — starts it again with nothing lost.
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: SocketActivator.isAvailable, "needs systemd-socket-activate (Debian package systemd)"))
struct SocketActivationEndToEndTests {
    static let appID = "org.test.activated"

    @Test func servesBothSocketsExitsWhenIdleAndStartsAgainOnTheNextConnection() async throws {
        let activator = try SocketActivator()
        try activator.supervise(["--idle-exit", "2"])
        // healthctl's connection is what starts healthd.
        let status = try await activator.healthctl(["status"])
        #expect(status.status == 0, "\(status)")
        #expect(status.stdout.contains("socket-activated, exits after 2 s idle"), "\(status)")
        try await SavingApp.install(Self.appID, root: activator.root) { try await activator.healthctl($0) }
        let saved: UUID
        do {
            let app = try SavingApp(socket: activator.appSocket)
            defer { app.close() }
            saved = try await app.save(1)
        }
        let exits = activator.idleExits

        #expect(await activator.waitForIdleExits(exits + 1, timeout: 120), "healthd did not exit when idle: \(activator.log)")
        let starts = activator.healthdStarts
        // The sockets are the service manager's: healthd left them in place.
        #expect(FileManager.default.fileExists(atPath: activator.appSocket))
        #expect(FileManager.default.fileExists(atPath: activator.adminSocket))
        #expect(!FileManager.default.fileExists(atPath: activator.socketDirectory + "/healthd.pid"))

        // The next connection starts healthd again, which serves it from the same store.
        let app = try SavingApp(socket: activator.appSocket)
        defer { app.close() }
        #expect(try await app.storedUUIDs() == [saved])
        #expect(activator.healthdStarts == starts + 1)
        activator.stop()
    }

    @Test func anOpenConnectionKeepsItRunning() async throws {
        let activator = try SocketActivator()
        try activator.supervise(["--idle-exit", "1"])
        try await SavingApp.install(Self.appID, root: activator.root) { try await activator.healthctl($0) }
        let app = try SavingApp(socket: activator.appSocket)
        _ = try await app.save(1)
        let exits = activator.idleExits
        // Four idle timeouts with the connection open: no exit, and the same connection is served.
        try await Task.sleep(for: .seconds(4))
        #expect(activator.idleExits == exits, "healthd exited with a connection open: \(activator.log)")
        #expect(try await app.storedUUIDs().count == 1)
        app.close()
        #expect(await activator.waitForIdleExits(exits + 1, timeout: 120), "\(activator.log)")
    }

    /// The launch agent holds a stream on the admin socket for as long as it runs: it must not
    /// keep healthd from exiting idle, nor — reconnecting — start healthd again just to wait on
    /// it. Whatever starts healthd next brings the agent back (it watches healthd.pid).
    @Test func theLaunchAgentNeitherKeepsHealthdUpNorStartsItAgain() async throws {
        let activator = try SocketActivator()
        try activator.supervise(["--idle-exit", "2"])
        let agentLog = activator.root + "/agent.log"
        _ = FileManager.default.createFile(atPath: agentLog, contents: nil)
        let log = open(agentLog, O_WRONLY | O_APPEND | O_CLOEXEC)
        let agent = try ChildProcess(Products.path("health-sandbox"), ["agent", "--socket", activator.adminSocket], stderr: log)
        close(log)
        defer {
            agent.signal(SIGKILL)
            agent.waitBlocking()
        }
        func connections() -> Int {
            ((try? String(contentsOfFile: agentLog, encoding: .utf8)) ?? "").components(separatedBy: "connected to healthd").count - 1
        }
        // The agent's own connection started healthd, and healthd still exits idle.
        try #require(await activator.waitForIdleExits(1, timeout: 120), "healthd stayed up for the agent: \(activator.log)")
        #expect(connections() == 1)
        // Several of the agent's retry periods later nothing has started healthd again.
        let starts = activator.healthdStarts
        try await Task.sleep(for: .seconds(4))
        #expect(activator.healthdStarts == starts, "the agent reconnected and started healthd again: \(activator.log)")

        #expect(try await activator.healthctl(["status"]).status == 0)
        let deadline = Date().addingTimeInterval(120)
        while connections() < 2 && Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(connections() >= 2, "the agent did not come back once healthd ran: \(String(describing: try? String(contentsOfFile: agentLog, encoding: .utf8)))")
        activator.stop()
    }

    /// Background delivery across an idle exit: the registration is in the store, so when an
    /// app's save starts healthd again the agent comes back and the registered app is launched;
    /// once it acknowledged, healthd is idle again and exits.
    @Test func backgroundDeliveryWorksAcrossAnIdleExit() async throws {
        let steps = "HKQuantityTypeIdentifierStepCount"
        let reader = "org.test.activated-reader", writer = "org.test.activated-writer"
        let activator = try SocketActivator()
        try activator.supervise(["--idle-exit", "2"])
        for (appID, entitlements) in [(reader, ["com.apple.developer.healthkit.background-delivery"]), (writer, [])] {
            let manifest: [String: Any] = [
                "id": appID, "displayName": "Test \(appID)", "executable": BrokerProcess.clientExecutable, "version": "1.0",
                "NSHealthShareUsageDescription": "reads for a test", "NSHealthUpdateUsageDescription": "writes for a test",
                "entitlements": entitlements,
            ]
            let path = activator.root + "/\(appID).json"
            try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
            #expect(try await activator.healthctl(["apps", "install", path]).status == 0)
        }
        #expect(try await activator.healthctl(["grant", reader, "read", steps]).status == 0)
        #expect(try await activator.healthctl(["grant", writer, "share", steps]).status == 0)
        #expect(try await activator.runApp(reader, ["background-enable", steps]).okValue == "enabled")
        let agent = try LaunchAgentProcess(root: activator.root, adminSocket: activator.adminSocket, backgroundTypes: [steps])
        let exits = activator.idleExits
        try #require(await activator.waitForIdleExits(exits + 1, timeout: 120), "healthd did not exit idle: \(activator.log)")

        #expect(try await activator.runApp(writer, ["save", steps, "100", "count", "1700000000", "1700000060"]).okValue != nil)
        #expect(try await agent.waitForAppLine(reader, "ok background"), "\(agent.log)\n\(activator.log)")
        #expect(await activator.waitForIdleExits(exits + 2, timeout: 120), "healthd did not exit idle after the delivery: \(activator.log)")
        #expect(agent.appLogLines(reader).count { $0 == "launched reason=background-delivery" } == 1, "\(agent.appLog(reader) ?? "")")
    }

    /// Socket modes are part of the admin boundary: a unit that got them wrong is refused with
    /// the setting to fix, and nothing is served.
    @Test(arguments: [(app: UInt32(0o666), admin: UInt32(0o644), wrong: "admin.sock has mode 644, not 600"),
                      (app: UInt32(0o600), admin: UInt32(0o600), wrong: "app.sock has mode 600, not 666")])
    func socketsWithTheWrongModeAreRefused(modes: (app: UInt32, admin: UInt32, wrong: String)) async throws {
        let activator = try SocketActivator(appMode: modes.app, adminMode: modes.admin)
        try activator.activate()
        try activator.poke()
        #expect(await activator.waitForExit(timeout: 120) == 1)
        #expect(activator.log.contains(modes.wrong), "\(activator.log)")
        #expect(activator.log.contains("SocketMode="))
    }

    @Test func socketsUnderSwappedNamesAreRefused() async throws {
        let activator = try SocketActivator()
        try activator.activate(names: "admin.sock:app.sock")
        try activator.poke()
        #expect(await activator.waitForExit(timeout: 120) == 1)
        #expect(activator.log.contains("is bound to"), "\(activator.log)")
    }
}
