import ArgumentParser
import Foundation
import HealthIPC
import HealthSandboxKit
import HealthWire

/// `health-sandbox agent`: starts apps for background delivery when healthd asks.
struct Agent: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Launch apps for background delivery when healthd asks (runs until stopped).",
        discussion: """
            healthd cannot start programs itself. Run this once per session, like healthctl: it connects to \
            healthd's admin socket and waits. When data an app enabled background delivery for changes (and the \
            app may read the change) while the app is not running, healthd asks the agent to launch it; the agent \
            runs `health-sandbox run APP-ID -- EXECUTABLE` (the executable of the app's installed manifest), so the \
            app is confined and bound to its id exactly as when started by hand, with \
            OPENHEALTH_LAUNCH_REASON=background-delivery in its environment. The app should start its \
            HKObserverQuery at once and call the completion handler. The agent reconnects when healthd restarts. \
            Only one agent may run per healthd. Exit codes: 77 refused by healthd, 70 internal failure.

            Folders: --data-root gives each app a data folder of its own. --app-allow-read and --app-allow-write \
            APP-ID=PATH give a folder to that one app; a folder given writable to one app may not be one another app \
            is given too (unless --allow-shared-writes). --allow-read and --allow-write give a folder to every app \
            the agent launches: shared, so apps can leave files for each other in an --allow-write folder.

            Example:
              health-sandbox agent --log-dir ~/.local/state/openhealth/apps
              health-sandbox agent --data-root ~/.local/share/openhealth-apps \\
                --app-allow-write org.example.heartrate=/srv/heartrate-export
            """)

    @Option(help: ArgumentHelp("healthd's admin socket.", valueName: "path"))
    var socket: String = ProcessInfo.processInfo.environment[LaunchEnvironment.adminSocketPathVariable]
        ?? DefaultPaths.adminSocket(in: DefaultPaths.socketDirectory)

    @Option(name: .customLong("log-dir"), help: ArgumentHelp(
        "Append each launched app's output to DIR/APP-ID.log (default: the agent's own output).", valueName: "dir"))
    var logDirectory: String?

    @Option(name: .customLong("allow-read"), help: ArgumentHelp(
        "Also let every launched app read (and execute) beneath PATH (repeatable; the same rules as `run --allow-read`).", valueName: "path"))
    var allowRead: [String] = []

    @Option(name: .customLong("allow-write"), help: ArgumentHelp(
        "Also let every launched app write beneath PATH (repeatable): one folder shared by all of them, where they can leave "
            + "files for each other; prefer --data-root or --app-allow-write, which give one app a folder of its own. Refused if "
            + "PATH is, contains or lies in a folder one app is given (--app-allow-read/--app-allow-write) or every app reads "
            + "(--allow-read), unless --allow-shared-writes.", valueName: "path"))
    var allowWrite: [String] = []

    @Option(name: .customLong("app-allow-read"), help: ArgumentHelp(
        "Let the one app APP-ID read (and execute) beneath PATH (repeatable).", valueName: "app-id=path"))
    var appAllowRead: [String] = []

    @Option(name: .customLong("app-allow-write"), help: ArgumentHelp(
        "Let the one app APP-ID write beneath PATH (repeatable). Refused if another app is given PATH, a folder in it or one "
            + "containing it (per app, or with --allow-read/--allow-write), unless --allow-shared-writes.",
        valueName: "app-id=path"))
    var appAllowWrite: [String] = []

    @Flag(name: .customLong("allow-shared-writes"), help: "Let a folder apps may write overlap one other apps are given too (they can then leave files for each other there, and change the code another app loads from it). The log folder, the data root and the tools' and runtime's folders stay refused.")
    var allowSharedWrites = false

    @Option(name: .customLong("data-root"), help: ArgumentHelp("Give each launched app the data folder PATH/APP-ID (as root: owned by the app's own uid).", valueName: "path"))
    var dataRoot: String?

    @Option(name: .customLong("landlock-abi"), help: "Refuse to launch apps unless the kernel's Landlock ABI is at least this. 1: Landlock required (any ABI); 0 runs without Landlock on a kernel that lacks it (no file confinement inside the app's namespaces).")
    var landlockABI: Int32 = 1

    func validate() throws {
        for path in allowRead + allowWrite + [logDirectory, dataRoot].compactMap({ $0 }) where !path.hasPrefix("/") {
            throw ValidationError("'\(path)' is not an absolute path")
        }
        do {
            _ = try folderGrants()  // the per-app options parse; `run` checks what they name
        } catch {
            throw ValidationError(error.description)
        }
        var isDirectory: ObjCBool = false
        if let logDirectory, !FileManager.default.fileExists(atPath: logDirectory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw ValidationError("--log-dir \(logDirectory) is not an existing directory")
        }
    }

    func run() throws {
        // Whoever started the agent may have left SIGINT/SIGTERM blocked (a process started from
        // a thread that blocks them inherits that); the agent has nothing to clean up on them,
        // so let their default action stop it.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stopSignals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
        guard let launcher = LaunchAgent.launcherPath() else {
            throw fail(AppLauncher.Failure(description: "cannot find this program's own path in /proc/self/exe", exitCode: 70))
        }
        do {
            // The one rule for every folder the apps are given (AgentFolderCheck.swift), before
            // anything is connected or launched.
            try folderGrants().checked(allowSharedWrites: allowSharedWrites, logDirectory: logDirectory,
                                       tools: ProtectedFolders.localTools(launcher: launcher))
        } catch {
            throw fail(AppLauncher.Failure(description: error.description, exitCode: error.exitCode))
        }
        let report: @Sendable (String) -> Void = { message in
            FileHandle.standardError.write(Data("health-sandbox agent: \(Date().ISO8601Format()) \(message)\n".utf8))
        }
        let outcomes = LaunchAgent.Outcomes()
        var configuration = SandboxedAppSpawner.Configuration(launcher: launcher, adminSocket: socket, logDirectory: logDirectory,
                                                              extraReadable: allowRead, extraWritable: allowWrite,
                                                              minimumLandlockABI: landlockABI, dataRoot: dataRoot)
        do {
            configuration.perApp = try folderGrants().perApp
        } catch {
            throw fail(AppLauncher.Failure(description: error.description, exitCode: 64))
        }
        let spawner = SandboxedAppSpawner(configuration, report: report, onExit: outcomes.send)
        throw fail(LaunchAgent(adminSocket: socket, spawner: spawner, outcomes: outcomes, report: report).runBlocking())
    }

    private func folderGrants() throws(AgentFolderRefusal) -> AgentFolderGrants {
        AgentFolderGrants(shared: .init(readable: allowRead, writable: allowWrite),
                          perApp: try AgentFolderGrants.perApp(readable: appAllowRead, writable: appAllowWrite), dataRoot: dataRoot)
    }

    private func fail(_ failure: AppLauncher.Failure) -> ExitCode {
        FileHandle.standardError.write(Data("health-sandbox agent: \(failure.description)\n".utf8))
        return ExitCode(failure.exitCode)
    }
}
