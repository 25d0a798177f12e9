import Foundation
import Glibc
import Testing
import TestSupport

/// Another local user posing as healthd (session 17 red team, finding 2): a socket folder made
/// first by that user, or a listener of that user where the client looks for healthd. Every
/// client — healthctl (status, unlock, by flag and by the default path), `health-sandbox run`, the
/// launch agent and an SDK app connecting by path — must refuse, say which folder or socket and
/// what to do, and send the impostor nothing (it records every byte it receives). One dimension
/// varies at a time: each squat differs from a sound folder in one respect only.
///
/// As root (CI): the clients run as root, the impostor as the unprivileged `ohk-escape`.
/// About 2 s per case (the agent's and the failing clients' runs), 24 cases.
@Suite(.timeLimit(.minutes(10)), .serialized,
       .enabled(if: getuid() == 0 && EscapeUser.unprivileged.isAvailable, "needs root to act as two users"))
struct BrokerImpostorTests {
    /// How the place a client dials differs from a sound one (a folder of root's, 0700, with
    /// root's healthd listening in it).
    enum Squat: String, CaseIterable, CustomStringConvertible {
        /// Everything sound but the listener: it runs as the other user.
        case foreignListener
        /// The folder belongs to the other user.
        case foreignFolder
        /// The folder is root's but writable by everyone (sticky, like /tmp).
        case openFolder
        /// The folder is a link to a sound folder.
        case linkedFolder

        var description: String { rawValue }
    }

    /// One client, as the user would run it against `folder`.
    enum Client: String, CaseIterable, CustomStringConvertible {
        case healthctlStatus, healthctlStatusByDefaultPath, healthctlUnlock, sandboxRun, agent, sdkDirect

        var description: String { rawValue }

        func run(folder: String, runtimeDirectory: String) async throws -> ProcessResult {
            let admin = folder + "/admin.sock"
            // Nothing from the test's own environment may point the clients elsewhere.
            var environment = ["OPENHEALTH_ADMIN_SOCKET": "", "OPENHEALTH_APP_SOCKET": "", "XDG_RUNTIME_DIR": "/nonexistent"]
            switch self {
            case .healthctlStatus:
                return try await ProcessRun.run(Products.path("healthctl"), ["status", "--socket", admin], environment: environment, timeout: 20)
            case .healthctlStatusByDefaultPath:
                environment["XDG_RUNTIME_DIR"] = runtimeDirectory
                return try await ProcessRun.run(Products.path("healthctl"), ["status"], environment: environment, timeout: 20)
            case .healthctlUnlock:
                return try await ProcessRun.run(Products.path("healthctl"), ["unlock", "--socket", admin], environment: environment,
                                                stdin: "the passcode\n", timeout: 20)
            case .sandboxRun:
                return try await ProcessRun.run(Products.path("health-sandbox"), ["run", "--socket", admin, "org.example.impostor", "--", "/bin/true"],
                                                environment: environment, timeout: 20)
            case .agent:
                // Left alone, an agent that talks to the impostor reconnects forever: the deadline ends it.
                return try await ProcessRun.run(Products.path("health-sandbox"), ["agent", "--socket", admin], environment: environment, timeout: 8)
            case .sdkDirect:
                environment["OPENHEALTH_APP_SOCKET"] = folder + "/app.sock"
                environment["OPENHEALTH_SOCKET_FD"] = nil
                return try await ProcessRun.run(Products.path("e2e-client"), ["query", "HKQuantityTypeIdentifierStepCount"],
                                                environment: environment, timeout: 20)
            }
        }
    }

    @Test(arguments: Squat.allCases, Client.allCases)
    func everyClientRefusesAnImpostorAndSendsItNothing(squat: Squat, client: Client) async throws {
        let place = try await ImpostorPlace(squat: squat, listenerUser: .unprivileged)
        defer { place.remove() }
        let result = try await client.run(folder: place.folder, runtimeDirectory: place.root)
        let received = try place.stopImpostor()

        #expect(received.allSatisfy { $0 == 0 }, "the client sent \(received) bytes to another user's listener\n\(result)")
        #expect(result.status != 0 && result.status < 128, "\(result)")
        let said = result.stderr + result.stdout
        let named = squat == .foreignListener ? place.folder + "/" : place.folder
        #expect(said.contains(named) && said.contains("nothing was sent"), "\(result)")
        if squat == .foreignListener || squat == .foreignFolder {
            #expect(said.contains("uid \(try await EscapeUser.unprivileged.ids().uid)"), "\(result)")
        }
    }

    /// The control: the same impostor run as the client's own user is talked to, so the record
    /// above does show bytes when a client sends them (and the checks do not refuse a sound place).
    @Test func aListenerOfTheClientsOwnUserIsTalkedTo() async throws {
        let place = try await ImpostorPlace(squat: nil, listenerUser: .root)
        defer { place.remove() }
        let result = try await Client.healthctlStatus.run(folder: place.folder, runtimeDirectory: place.root)
        let received = try place.stopImpostor()
        #expect(received.contains { $0 > 0 }, "healthctl sent nothing to its own user's listener: \(received)\n\(result)")
    }
}

/// A folder `root/openhealth` laid out as `squat` says, with `broker-impostor` listening on its
/// `admin.sock` and `app.sock` as `listenerUser`. The impostor listens in a staging folder of that
/// user first; its sockets are then moved into place (a listener keeps its credentials wherever
/// its file goes), so the listener is the other user's whatever the folder's owner.
struct ImpostorPlace {
    let root: String
    var folder: String { root + "/openhealth" }
    private let impostor: ChildProcess
    private let output: String

    init(squat: BrokerImpostorTests.Squat?, listenerUser: EscapeUser) async throws {
        root = NSTemporaryDirectory() + "ohk-impostor-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        chmod(root, 0o755)
        let (uid, gid) = try await EscapeUser.unprivileged.ids()
        let listener = try await listenerUser.ids()
        let staging = root + "/staging"
        mkdir(staging, 0o700)
        try #require(chown(staging, listener.uid, listener.gid) == 0)
        output = root + "/impostor.out"
        let outputFD = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(outputFD >= 0)
        defer { close(outputFD) }
        let (program, arguments) = try await listenerUser.command(Products.path("broker-impostor"),
                                                                   [staging + "/admin.sock", staging + "/app.sock"])
        impostor = try ChildProcess(program, arguments, stdout: outputFD)
        let deadline = Date().addingTimeInterval(20)
        while !((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("ready") {
            guard impostor.isRunning, Date() < deadline else { throw ImpostorFailed(detail: "broker-impostor did not start") }
            try await Task.sleep(for: .milliseconds(20))
        }

        let real = squat == .linkedFolder ? root + "/real" : folder
        mkdir(real, 0o700)
        switch squat {
        case .foreignFolder?: try #require(chown(real, uid, gid) == 0)
        case .openFolder?: try #require(chmod(real, 0o1777) == 0)
        case .linkedFolder?: try #require(symlink(real, folder) == 0)
        case .foreignListener?, nil: break
        }
        for name in ["admin.sock", "app.sock"] {
            try #require(rename(staging + "/" + name, real + "/" + name) == 0, "move \(name): \(errno)")
        }
        // What a running healthd leaves there, so the launch agent dials at once.
        _ = FileManager.default.createFile(atPath: real + "/healthd.pid", contents: Data("1\n".utf8))
    }

    /// Stops the impostor; the byte count of every connection it accepted.
    func stopImpostor() throws -> [Int] {
        // A connection's line is written when the client closes; give the last one a moment.
        usleep(200_000)
        // SIGKILL: a child of the test process may inherit SIGTERM blocked.
        impostor.signal(SIGKILL)
        impostor.waitBlocking()
        let text = try String(contentsOfFile: output, encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix("bytes ") }.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
    }

    func remove() {
        impostor.signal(SIGKILL)
        try? FileManager.default.removeItem(atPath: root)
    }
}

struct ImpostorFailed: Error, CustomStringConvertible {
    let detail: String
    var description: String { detail }
}
