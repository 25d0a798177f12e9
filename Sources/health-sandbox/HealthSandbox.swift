import ArgumentParser
import Foundation
import HealthIPC
import HealthModel
import HealthWire
import HealthSandboxKit

@main
struct HealthSandbox: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health-sandbox",
        abstract: "Starts an app confined, with a connection to healthd already bound to the app's id.",
        subcommands: [Run.self, Agent.self, Confine.self])

    /// The app's command (everything after the first `--`) goes past swift-argument-parser:
    /// its `.postTerminator` array costs time quadratic in the number of values (a union of
    /// input origins per value), so 4,000 arguments took minutes of CPU before anything was
    /// launched. The parser sees the options, `--` and the command's first word (what
    /// `validate()` checks); the whole command is put back before `run()`.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let terminator = arguments.firstIndex(of: "--") else { return main(arguments) }
        let command = Array(arguments[(terminator + 1)...])
        do {
            var parsed = try parseAsRoot(Array(arguments[...terminator]) + command.prefix(1))
            if var run = parsed as? Run {
                run.command = command
                parsed = run
            } else if var confine = parsed as? Confine {
                confine.command = command
                parsed = confine
            }
            try parsed.run()
        } catch {
            exit(withError: error)
        }
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run CMD as the installed app APP-ID, confined.",
        discussion: """
            health-sandbox asks healthd (over the admin socket) for a connection bound to APP-ID, then runs CMD \
            under bubblewrap in namespaces of its own (user, mount, pid, ipc, uts, network: no network unless the \
            manifest asks for it and the user allowed it with `healthctl apps allow-network`; all \
            capabilities dropped) with a minimal file system (system libraries \
            read-only, CMD's executable file — not its folder: name a folder of libraries or data beside it with \
            --allow-read —, --data and --allow-read/--allow-write paths, a private /tmp; no store, no sockets \
            of healthd, no other process). It refuses (exit 71, naming the path) any path that is /, /tmp, your home or a \
            folder containing it, or that is, contains or lies in healthd's store or socket folder, and a writable path \
            (--data, --allow-write) in an --allow-read one: the app could run what it writes. A terminal on standard \
            input is replaced by /dev/null: the app never reads what you type (redirect input from a file or pipe \
            instead). On a terminal, standard output and error reach it through health-sandbox, which shows control \
            characters, escape sequences and bidirectional formatting as escapes (\\u{1B}) and starts every row with \
            [app APP-ID], so nothing the app prints can steer the terminal or pass for another program's prompt; \
            to a file or pipe the app's output passes unchanged. Inside, it confines itself — no_new_privs, a seccomp filter and a \
            Landlock policy — and execs CMD with the connection inherited (its descriptor number in \
            OPENHEALTH_SOCKET_FD), where the HealthKit SDK finds it. Needs bubblewrap and user namespaces; without \
            them it refuses to run the app. Exit codes: 69 healthd unreachable, 77 binding refused, 71 confinement \
            failed, 126/127 exec failed; otherwise CMD's own.

            Run as root, it first becomes the app's own unprivileged uid and gid (healthd assigns one per app, \
            0x70000000 and up), so the app is not root outside its namespace either; the --data folder is given to \
            that uid first, while --allow-write paths keep their owners and modes (a folder of root's stays \
            unwritable to the app).

            Example:
              health-sandbox run org.example.heartrate -- ./heart-rate-app
              health-sandbox run org.example.heartrate --data /var/lib/heartrate -- /opt/heartrate/bin/heart-rate
              health-sandbox run org.example.heartrate --allow-read /opt/heartrate/lib -- /opt/heartrate/bin/heart-rate
            """)

    @Argument(help: "The installed app's id (see `healthctl apps list`).")
    var appID: String

    @Argument(parsing: .postTerminator, help: "The command to run, after --.")
    var command: [String] = []

    @Option(help: ArgumentHelp("healthd's admin socket.", valueName: "path"))
    var socket: String = ProcessInfo.processInfo.environment[LaunchEnvironment.adminSocketPathVariable]
        ?? DefaultPaths.adminSocket(in: DefaultPaths.socketDirectory)

    @Option(name: .customLong("allow-read"), help: ArgumentHelp("Also let the app read (and execute) beneath PATH (repeatable).", valueName: "path"))
    var allowRead: [String] = []

    @Option(name: .customLong("allow-write"), help: ArgumentHelp("Also let the app write beneath PATH (repeatable).", valueName: "path"))
    var allowWrite: [String] = []

    @Option(name: .customLong("data"), help: ArgumentHelp("The app's data folder: writable, and as root given to the app's own uid first.", valueName: "path"))
    var data: String?

    @Option(name: .customLong("landlock-abi"), help: "Refuse to run unless the kernel's Landlock ABI is at least this. 1: Landlock required (any ABI); 0 runs without Landlock on a kernel that lacks it (no file confinement inside the app's namespaces).")
    var landlockABI: Int32 = 1

    func validate() throws {
        // The manifest's id rule (healthd's launch binding checks it too): a look-alike id is refused here first.
        guard AppIDRule.isValid(appID) else { throw ValidationError("'\(AppIDRule.spelled(appID))' is not an app id: an app \(AppIDRule.message)") }
        guard !command.isEmpty else { throw ValidationError("give the command to run after --, e.g. `health-sandbox run \(appID) -- ./my-app`") }
        for path in allowRead + allowWrite + [data].compactMap({ $0 }) where !path.hasPrefix("/") {
            throw ValidationError("'\(path)' is not an absolute path")
        }
    }

    func run() throws {
        guard let executable = AppLauncher.resolveExecutable(command[0]) else {
            throw fail(AppLauncher.Failure(description: "\(command[0]): command not found", exitCode: 127))
        }
        let bound: (descriptor: Int32, binding: LaunchBinding)
        do {
            bound = try AppLauncher.obtainBoundSocket(appID: appID, adminSocket: socket)
        } catch {
            throw fail(error)
        }
        // Root never runs an app as root: it becomes the app's own uid (AppIdentitySwitch).
        var identity: AppIdentitySwitch?
        if geteuid() == 0 || getuid() == 0 {
            do {
                identity = try AppIdentitySwitch(sandboxUID: bound.binding.sandboxUID, appID: appID)
            } catch {
                throw fail(AppLauncher.Failure(description: error.description, exitCode: 71))
            }
        }
        let protected = ProtectedFolders.forLaunch(storeDirectory: bound.binding.storeDirectory,
                                                   socketDirectory: bound.binding.socketDirectory,
                                                   defaultStore: DefaultPaths.storeDirectory,
                                                   defaultSocketDirectory: DefaultPaths.socketDirectory,
                                                   executables: ProtectedFolders.executables(named: bound.binding.executables, launching: appID,
                                                                                             launcher: LaunchAgent.launcherPath()))
        let policy: LaunchPolicy
        do {
            policy = try LaunchPolicy.checked(executable: executable, allowRead: allowRead, allowWrite: allowWrite, data: data,
                                              protecting: protected)
        } catch {
            close(bound.descriptor)
            throw fail(AppLauncher.Failure(description: "refusing to run \(appID): \(error.description)", exitCode: 71))
        }
        throw fail(AppLauncher.execInNamespaces(appID: appID, executable: executable, arguments: [executable] + command.dropFirst(),
                                                boundSocket: bound.descriptor, policy: policy, minimumLandlockABI: landlockABI,
                                                identity: identity, dataFolder: data, network: bound.binding.network,
                                                maskedFolders: protected.healthFolders.map(\.path)))
    }

    private func fail(_ failure: AppLauncher.Failure) -> ExitCode {
        FileHandle.standardError.write(Data("health-sandbox: \(failure.description)\n".utf8))
        return ExitCode(failure.exitCode)
    }
}
