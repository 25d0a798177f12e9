import ArgumentParser
import Foundation
import HealthIPC
import HealthWire
import HealthSandboxKit

@main
struct HealthSandbox: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health-sandbox",
        abstract: "Starts an app confined, with a connection to healthd already bound to the app's id.",
        subcommands: [Run.self, Agent.self, Confine.self])
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run CMD as the installed app APP-ID, confined.",
        discussion: """
            health-sandbox asks healthd (over the admin socket) for a connection bound to APP-ID, then runs CMD \
            under bubblewrap in namespaces of its own (user, mount, pid, ipc, uts, network: no network; all \
            capabilities dropped; as root, an unprivileged uid) with a minimal file system (system libraries \
            read-only, CMD's own directory, --allow-read/--allow-write paths, a private /tmp; no store, no sockets \
            of healthd, no other process). Inside, it confines itself — no_new_privs, a seccomp filter and a \
            Landlock policy — and execs CMD with the connection inherited (its descriptor number in \
            OPENHEALTH_SOCKET_FD), where the HealthKit SDK finds it. Needs bubblewrap and user namespaces; without \
            them it refuses to run the app. Exit codes: 69 healthd unreachable, 77 binding refused, 71 confinement \
            failed, 126/127 exec failed; otherwise CMD's own.

            Example:
              health-sandbox run org.example.heartrate -- ./heart-rate-app
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

    @Option(name: .customLong("landlock-abi"), help: "Refuse to run unless the kernel's Landlock ABI is at least this (0 = best effort).")
    var landlockABI: Int32 = 0

    func validate() throws {
        guard !command.isEmpty else { throw ValidationError("give the command to run after --, e.g. `health-sandbox run \(appID) -- ./my-app`") }
        for path in allowRead + allowWrite where !path.hasPrefix("/") {
            throw ValidationError("'\(path)' is not an absolute path")
        }
    }

    func run() throws {
        guard let executable = AppLauncher.resolveExecutable(command[0]) else {
            throw fail(AppLauncher.Failure(description: "\(command[0]): command not found", exitCode: 127))
        }
        let bound: Int32
        do {
            bound = try AppLauncher.obtainBoundSocket(appID: appID, adminSocket: socket)
        } catch {
            throw fail(error)
        }
        let policy = LaunchPolicy.default(executable: executable, extraReadable: allowRead, extraWritable: allowWrite)
        throw fail(AppLauncher.execInNamespaces(executable: executable, arguments: [executable] + command.dropFirst(),
                                    boundSocket: bound, policy: policy, minimumLandlockABI: landlockABI))
    }

    private func fail(_ failure: AppLauncher.Failure) -> ExitCode {
        FileHandle.standardError.write(Data("health-sandbox: \(failure.description)\n".utf8))
        return ExitCode(failure.exitCode)
    }
}
