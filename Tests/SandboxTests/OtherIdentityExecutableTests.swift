import Foundation
import Glibc
import HealthSandboxKit
import HealthWire
import Synchronization
import Testing
import TestSupport

/// Session 19 review, finding 4: a folder given to an app writable could hold another installed
/// app's executable or the manager tools. App A, given `--allow-write` of the folder holding
/// app B's executable, rewrote it in place (same inode); B's next launch ran A's code as B, with
/// B's grants, and a rewritten healthctl would pass the admin socket's checks. Now healthd sends
/// with the launch binding every installed app's executable and the tools it trusts, and
/// `health-sandbox run` refuses (exit 71, naming the executable) any writable path — option,
/// folder, link to it, the file itself — that is or holds one that is not the app's own; the
/// agent's launches are `run`s and are refused alike. Real healthd, real sandbox, as root and as
/// an ordinary user; the app tries to open B's executable for writing (`dd … conv=notrunc`,
/// which writes nothing). Before the fix every refused case ran: the ordinary user's write was
/// allowed (exit 0), root's app uid got EACCES (exit 1) (commit message).
@Suite(.timeLimit(.minutes(10)), .serialized) struct OtherIdentityExecutableTests {
    static let writer = "org.test.writer"
    static let victim = "org.test.victim"

    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func noFolderAnAppMayWriteHoldsCodeAnotherIdentityRuns(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let writer = try await world.install(Self.writer, product: "escape-probe")
        let victim = try await world.install(Self.victim, product: "escape-probe")
        let victimFolder = (victim.executable as NSString).deletingLastPathComponent
        let link = world.root + "/victim-link"
        let linked = try await user.run("/bin/ln", ["-s", victimFolder, link])
        #expect(linked.status == 0, "\(linked)")
        let original = FileManager.default.contents(atPath: victim.executable)
        let tools = Products.directory
        let write = { (target: String) in ["/usr/bin/dd", "if=/dev/null", "of=\(target)", "conv=notrunc", "status=none"] }

        let refused: [(what: String, allowWrite: [String], data: String?, target: String, named: String)] = [
            ("the folder holding every app", [world.root + "/apps"], nil, victim.executable, victim.executable),
            ("the other app's folder", [victimFolder], nil, victim.executable, victim.executable),
            ("the other app's folder as --data", [], victimFolder, victim.executable, victim.executable),
            ("a link to the other app's folder", [link], nil, link + "/escape-probe", victim.executable),
            ("the other app's executable itself", [victim.executable], nil, victim.executable, victim.executable),
            ("the manager tools' folder", [tools], nil, tools + "/healthctl", tools + "/health"),
        ]
        for (what, allowWrite, data, target, named) in refused {
            let run = try await world.runSandboxed(Self.writer, data: data, write(target), allowWrite: allowWrite)
            #expect(run.status == 71, "\(user), \(what): \(run)")
            #expect(run.stderr.contains(named) && run.stderr.contains(allowWrite.first ?? data ?? ""), "\(user), \(what): \(run.stderr)")
        }
        #expect(FileManager.default.contents(atPath: victim.executable) == original, "\(user): the victim's executable changed")

        // Control: the app's own folder (it holds only its own executable) is accepted.
        let ownFolder = (writer.executable as NSString).deletingLastPathComponent
        let own = try await world.runSandboxed(Self.writer, data: nil, write(ownFolder + "/own-file"), allowWrite: [ownFolder])
        #expect(own.status != 71 && !own.stderr.contains("refusing"), "\(user): own folder: \(own)")

        if user == .root { try await theAgentsLaunchIsRefusedAlike(world, writer: writer.executable, victim: victim.executable) }
    }

    /// The agent's per-app folder holding another app's executable: the launch's `run` exits 71
    /// naming it (the agent's own start cannot know the installed apps; `AgentOwnFolderTests`
    /// covers the tools it can).
    private func theAgentsLaunchIsRefusedAlike(_ world: EscapeWorld, writer: String, victim: String) async throws {
        let exits = Mutex<[LaunchOutcome]>([])
        var configuration = SandboxedAppSpawner.Configuration(launcher: Products.path("health-sandbox"), adminSocket: world.adminSocket,
                                                              logDirectory: world.root, extraReadable: [], extraWritable: [],
                                                              minimumLandlockABI: 0)
        configuration.perApp = [Self.writer: .init(writable: [world.root + "/apps"])]
        let spawner = SandboxedAppSpawner(configuration, report: { _ in }, onExit: { outcome in exits.withLock { $0.append(outcome) } })
        let launched = spawner.launch(LaunchRequest(requestID: 1, appID: Self.writer, executable: writer, typeIdentifiers: []))
        #expect(launched.kind == .launched, "\(launched)")
        let deadline = Date().addingTimeInterval(60)
        while exits.withLock({ $0.isEmpty }), Date() < deadline { usleep(20_000) }
        let log = (try? String(contentsOfFile: world.root + "/\(Self.writer).log", encoding: .utf8)) ?? ""
        #expect(exits.withLock { $0.first?.exitStatus } == 71, "\(log)")
        #expect(log.contains(victim), "\(log)")
    }
}
