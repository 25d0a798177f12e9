import Foundation
import Glibc
import Testing
import TestSupport

/// What a sandboxed app sees through the paths of its launch, tried by `escape-probe` under the
/// real `health-sandbox run` against a real healthd, as root and as an ordinary user (one
/// healthd per user, its store in a fake home: `HOME/.local/share/openhealth`, the default
/// layout). Session 17's red-team findings 1, 4, 7 and 8; each case failed before the fix
/// (commit message).
@Suite(.timeLimit(.minutes(10)), .serialized) struct VisiblePathsEscapeTests {
    static let appID = "org.test.paths"

    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func anAppSeesOnlyWhatItIsGiven(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user, storeBeneathRoot: "home/.local/share/openhealth")
        defer { world.stop() }
        let app = try await world.install(Self.appID, product: "escape-probe")
        let outside = try AbstractListener()
        let paths = Paths(world: world, app: app, outside: outside)

        try await executableInTheHomeDoesNotShowTheHome(paths)
        try await everyOptionRefusesTheHomeTheStoreAndTheSockets(paths)
        try await aWritableFolderBeneathTheExecutableIsNotExecutable(paths)
        try await anExecutableInTmpKeepsThePrivateTmp(paths)
        try await theAppDoesNotReadTheTerminal(paths)
    }

    /// Finding 1 (High): the executable's folder was bound whole. Run from a home that holds the
    /// store (`cd ~ && health-sandbox run APP -- ./my-app`), the app read the database and
    /// `machine.key` (an ordinary user: allowed; root: EACCES, its own uid). Now only the file
    /// is bound: the store is not in the app's namespace at all, and every other row of the
    /// escape table still holds.
    private func executableInTheHomeDoesNotShowTheHome(_ paths: Paths) async throws {
        let world = paths.world, user = world.user
        let inHome = paths.home + "/escape-probe"
        try await paths.copyProbe(to: inHome)
        let attempts = paths.attempts(ownFile: inHome, writable: paths.app.data)
        let confined = try await world.runSandboxed(Self.appID, data: paths.app.data, [inHome] + attempts,
                                                    environment: ["HOME": paths.home])
        #expect(confined.status == 0, "\(user): \(confined)")
        let seen = RealSandboxEscapeTests.results(confined)
        for (attempt, expected) in RealSandboxEscapeTests.confined.sorted(by: { $0.key < $1.key }) {
            #expect(seen[attempt] == expected, "\(user): \(attempt), executable in the store's home: \(seen[attempt] ?? "missing"), expected \(expected)")
        }
        // Control: unconfined, the same user reaches the key (root and the store's owner both may).
        let control = RealSandboxEscapeTests.results(try await user.run(inHome, attempts))
        #expect(control["open_key"] == "allowed", "\(user): control \(control["open_key"] ?? "missing")")
    }

    /// No option shows the app the home, a folder holding it, healthd's store or socket folder
    /// (itself, a folder containing it, a folder in it, a link to it), `/` or the host's `/tmp`:
    /// each combination of option × path exits 71 before the app runs, naming the path.
    private func everyOptionRefusesTheHomeTheStoreAndTheSockets(_ paths: Paths) async throws {
        let world = paths.world, user = world.user
        let link = world.root + "/home-link"
        let linked = try await user.run("/bin/ln", ["-s", paths.home, link])
        #expect(linked.status == 0, "\(linked)")
        let targets = [paths.home, world.root, paths.home + "/.local", world.store, world.store + "/inside", world.socketDirectory,
                       world.socketDirectory + "/app.sock", link, link + "/.local/share", "/", "/tmp"]
        for option in ["--allow-read", "--allow-write", "--data"] {
            for target in targets {
                let run = try await user.run(Products.path("health-sandbox"),
                                             ["run", Self.appID, "--socket", world.adminSocket, option, target, "--", paths.app.executable],
                                             environment: ["HOME": paths.home])
                #expect(run.status == 71 && run.stderr.contains("refusing to run") && run.stderr.contains("\(option) \(target)"),
                        "\(user): \(option) \(target) was not refused: \(run)")
                #expect(!run.stderr.contains("usage: escape-probe"), "\(user): the app ran with \(option) \(target)")
            }
        }
        // Control: a folder of its own beneath the home is fine; the app runs (its usage, exit 2).
        let own = paths.home + "/apps-data"
        #expect(try await user.run("/bin/mkdir", ["-p", own]).status == 0)
        let allowed = try await world.runSandboxed(Self.appID, data: nil, [paths.app.executable], allowRead: [own], allowWrite: [own + "-w"],
                                                   environment: ["HOME": paths.home])
        #expect(allowed.status == 2 && allowed.stderr.contains("usage: escape-probe"), "\(user): \(allowed)")
    }

    /// Finding 4 (Medium): Landlock's rights add up along a path, so a writable folder beneath
    /// one the app may execute from was executable: the app ran what it wrote there. `--data`
    /// beside the executable is now outside every executable path (exec → EACCES); naming the
    /// executable's folder as well is refused (71, both paths named).
    private func aWritableFolderBeneathTheExecutableIsNotExecutable(_ paths: Paths) async throws {
        let world = paths.world, user = world.user
        let folder = (paths.app.executable as NSString).deletingLastPathComponent
        let data = folder + "/data"
        #expect(try await user.run("/bin/mkdir", ["-p", data]).status == 0)
        let attempts = paths.attempts(ownFile: paths.app.executable, writable: data)
        let confined = try await world.runSandboxed(Self.appID, data: data, [paths.app.executable] + attempts)
        let seen = RealSandboxEscapeTests.results(confined)
        #expect(confined.status == 0, "\(user): \(confined)")
        #expect(seen["exec_written_file"] == "denied (EACCES)", "\(user): a program written beside the executable ran: \(confined)")

        let both = try await world.runSandboxed(Self.appID, data: data, [paths.app.executable] + attempts, allowRead: [folder])
        #expect(both.status == 71 && both.stderr.contains("--data \(data) is writable and lies in \(folder)"), "\(user): \(both)")
        #expect(!both.stdout.contains("exec_written_file"), "\(user): the app ran: \(both)")
    }

    /// Finding 8 (Low): an executable in `/tmp` itself bound the host's `/tmp` read-only over the
    /// app's private one: the app saw other users' files there and could not write its own.
    private func anExecutableInTmpKeepsThePrivateTmp(_ paths: Paths) async throws {
        let world = paths.world, user = world.user
        let suffix = UUID().uuidString.prefix(8)
        let executable = "/tmp/ohk-paths-probe-\(suffix)", marker = "/tmp/ohk-paths-marker-\(suffix)"
        defer { unlink(executable); unlink(marker) }
        try await paths.copyProbe(to: executable)
        FileManager.default.createFile(atPath: marker, contents: Data("host".utf8), attributes: [.posixPermissions: 0o644])
        let attempts = paths.attempts(ownFile: executable, writable: paths.app.data) + ["--tmp-marker", marker]
        let confined = RealSandboxEscapeTests.results(try await world.runSandboxed(Self.appID, data: paths.app.data, [executable] + attempts))
        #expect(confined["tmp_marker_visible"] == "no", "\(user): the host's /tmp is visible: \(confined)")
        #expect(confined["tmp_write"] == "allowed", "\(user): the app's /tmp is not its own: \(confined)")
        let control = RealSandboxEscapeTests.results(try await user.run(executable, attempts))
        #expect(control["tmp_marker_visible"] == "yes", "\(user): control: \(control)")
    }

    /// Finding 7 (Low): in a session of its own (`bwrap --new-session`) the app is not stopped by
    /// job control when it reads the terminal in the background, so it kept the user's terminal
    /// as stdin and read what the user typed next. Now a terminal on stdin becomes /dev/null, and
    /// on stdout/stderr the app gets a pipe health-sandbox relays (session 18): it holds the
    /// terminal neither for reading nor for writing.
    private func theAppDoesNotReadTheTerminal(_ paths: Paths) async throws {
        let world = paths.world, user = world.user
        let terminal = try Terminal(owner: try await user.ids())
        defer { terminal.close() }
        let attempts = paths.attempts(ownFile: paths.app.executable, writable: paths.app.data)
        let (program, arguments) = try await user.command(Products.path("health-sandbox"),
                                                          ["run", Self.appID, "--socket", world.adminSocket, "--data", paths.app.data, "--",
                                                           paths.app.executable] + attempts)
        let confined = try await terminal.run(program, arguments)
        #expect(confined["terminal_readable"] == "none", "\(user): the app can read the terminal: \(confined)")
        // Nor does it hold the terminal for output: health-sandbox relays a pipe (TerminalRelayTests).
        #expect(confined["terminal_writable"] == "none", "\(user): the app holds the terminal: \(confined)")
        let (controlProgram, controlArguments) = try await user.command(paths.app.executable, attempts)
        let control = try await terminal.run(controlProgram, controlArguments)
        #expect(control["terminal_readable"] == "0 2", "\(user): control: \(control)")
    }

    /// The world, the installed app and the probe's arguments.
    struct Paths {
        let world: EscapeWorld
        let app: (executable: String, data: String)
        let outside: AbstractListener
        var home: String { world.root + "/home" }

        func attempts(ownFile: String, writable: String) -> [String] {
            ["attempts", "--healthd-pid", String(world.healthdPID), "--store", world.store, "--key", world.key,
             "--app-socket", world.appSocket, "--admin-socket", world.adminSocket, "--own-file", ownFile,
             "--writable-dir", writable, "--outside-abstract", outside.name]
        }

        /// A copy of escape-probe of the world's user (cp in a child: see `EscapeWorld.install`).
        func copyProbe(to path: String) async throws {
            let copied = try await world.user.run("/bin/cp", [Products.path("escape-probe"), path])
            guard copied.status == 0 else { throw CommandFailed(result: copied) }
        }
    }
}
