import Foundation
import Glibc
public import HealthWire
import Synchronization

/// Starts apps for `health-sandbox agent`: each launch is a child `health-sandbox run APP --
/// EXECUTABLE`, so a launched app gets exactly what a user-started one gets — a connection
/// bound to its id by healthd, and the same confinement. The agent itself stays unconfined (it
/// must reach the admin socket and start processes); only its children confine themselves.
///
/// One instance of an app at a time: a launch for an app still running is skipped, as the
/// running one may receive the change through its observer queries. Every launch request gets
/// an outcome (launched, already running, failed), and every launched app's exit is reported
/// (`onExit`): healthd relaunches a skipped app when it exits, and counts an app that exited
/// without taking its update as an unanswered launch.
public final class SandboxedAppSpawner: Sendable {
    public struct Configuration: Sendable {
        /// This program (`health-sandbox`), whose `run` subcommand each child executes.
        public var launcher: String
        public var adminSocket: String
        /// Where each app's standard output and error go (`APP-ID.log`, appended); nil: the agent's own.
        public var logDirectory: String?
        /// Given to every app (shared: see `AgentFolderGrants`).
        public var extraReadable: [String]
        public var extraWritable: [String]
        /// Given to one app each, by app id (`--app-allow-read`, `--app-allow-write`).
        public var perApp: [String: AgentFolderGrants.Folders] = [:]
        /// The launched apps' environment (plus the launch reason); nil: the agent's own.
        public var environment: [String: String]?
        public var minimumLandlockABI: Int32
        /// Each app's data folder is `dataRoot/APP-ID` (made 0700 if missing), passed as `--data`:
        /// as root, `run` gives it to the app's own uid. Nil: no data folder.
        public var dataRoot: String?

        public init(launcher: String, adminSocket: String, logDirectory: String?, extraReadable: [String],
                    extraWritable: [String], minimumLandlockABI: Int32, dataRoot: String? = nil) {
            self.launcher = launcher
            self.adminSocket = adminSocket
            self.logDirectory = logDirectory
            self.extraReadable = extraReadable
            self.extraWritable = extraWritable
            self.minimumLandlockABI = minimumLandlockABI
            self.dataRoot = dataRoot
        }
    }

    private let configuration: Configuration
    private let report: @Sendable (String) -> Void
    /// Apps started and not yet exited, by id.
    private let running = Mutex<[String: pid_t]>([:])
    /// Told (on the reaper's thread) when a launched app exits: its `exited` outcome.
    private let onExit: @Sendable (LaunchOutcome) -> Void

    public init(_ configuration: Configuration, report: @escaping @Sendable (String) -> Void,
                onExit: @escaping @Sendable (LaunchOutcome) -> Void = { _ in }) {
        self.configuration = configuration
        self.report = report
        self.onExit = onExit
    }

    /// Starts the app `request` names, unless it is still running, and hands what happened to
    /// `deliver` — before the app's exit can reach `onExit`: an app that dies at once is reaped
    /// on its watcher thread, which holds its `exited` outcome until the launch outcome has been
    /// delivered, so healthd never hears of the exit of a launch it has not heard of (it would
    /// then wait out its timeout for an acknowledgement from an app long gone).
    public func launch(_ request: LaunchRequest, deliver: (LaunchOutcome) -> Void) {
        let (outcome, launchReported) = start(request)
        deliver(outcome)
        launchReported?.signal()
    }

    /// Starts the app `request` names, unless it is still running; returns what happened. The
    /// app's exit may reach `onExit` before the caller has used the result: callers that report
    /// both use `launch(_:deliver:)`.
    public func launch(_ request: LaunchRequest) -> LaunchOutcome {
        let (outcome, launchReported) = start(request)
        launchReported?.signal()
        return outcome
    }

    /// The launch itself; for a started app, also the signal its watcher waits for before it
    /// reports the app's exit.
    private func start(_ request: LaunchRequest) -> (LaunchOutcome, DispatchSemaphore?) {
        // Manifest ids only (`AppIDRule`): anything else must not become a log file path or a key of `running`.
        guard LaunchAppID.isUsable(request.appID) else {
            report("refusing launch request \(request.requestID): app id \(request.appID.prefix(64)) is not a valid id")
            return (LaunchOutcome(requestID: request.requestID, kind: .failed, appID: request.appID, detail: "not a valid app id"), nil)
        }
        let launchReported = DispatchSemaphore(value: 0)
        // Checked and recorded under one lock: two requests for one app never both start it.
        let spawned = running.withLock { running -> Result<pid_t, SpawnError>? in
            if running[request.appID] != nil { return nil }
            let result = spawnOnWatcherThread(request, launchReported: launchReported)
            if case let .success(pid) = result { running[request.appID] = pid }
            return result
        }
        switch spawned {
        case nil:
            let pid = running.withLock { $0[request.appID] } ?? 0
            report("\(request.appID) is still running (pid \(pid)); launch request \(request.requestID) skipped")
            return (LaunchOutcome(requestID: request.requestID, kind: .alreadyRunning, appID: request.appID, pid: pid), nil)
        case let .success(pid):
            // A count, not the types: this goes to the journal, and which kinds of health data
            // changed when is health information (DESIGN.md §5: no type name on disk).
            let types = request.typeIdentifiers.count
            report("launched \(request.appID) (pid \(pid), request \(request.requestID), for \(types) type\(types == 1 ? "" : "s"))")
            return (LaunchOutcome(requestID: request.requestID, kind: .launched, appID: request.appID, pid: pid), launchReported)
        case let .failure(error):
            report("cannot launch \(request.appID): \(error)")
            let detail = String(decoding: Array("\(error)".utf8.prefix(LaunchOutcome.maxDetailBytes / 2)), as: UTF8.self)
            return (LaunchOutcome(requestID: request.requestID, kind: .failed, appID: request.appID, detail: detail), nil)
        }
    }

    /// `health-sandbox run APP --socket S [--allow-…] -- EXECUTABLE`, in its own process group
    /// (a Ctrl-C meant for the agent does not stop apps mid-update), stdin from /dev/null.
    private func spawn(_ request: LaunchRequest) throws(SpawnError) -> pid_t {
        var arguments = [configuration.launcher, "run", request.appID, "--socket", configuration.adminSocket]
        let own = configuration.perApp[request.appID] ?? AgentFolderGrants.Folders()
        arguments += (configuration.extraReadable + own.readable).flatMap { ["--allow-read", $0] }
        arguments += (configuration.extraWritable + own.writable).flatMap { ["--allow-write", $0] }
        if let dataRoot = configuration.dataRoot {
            // The id is checked in `launch` (no '/', no leading '.'), so the folder stays inside the root.
            do {
                arguments += ["--data", try AgentFolderEntries.dataFolder(in: dataRoot, name: request.appID)]
            } catch {
                throw SpawnError(error)
            }
        }
        arguments += ["--landlock-abi", String(configuration.minimumLandlockABI), "--", request.executable]
        var environment = configuration.environment ?? ProcessInfo.processInfo.environment
        environment[LaunchEnvironment.launchReasonVariable] = LaunchEnvironment.backgroundDeliveryLaunchReason

        var output: Int32 = -1
        if let directory = configuration.logDirectory {
            // Never through a link, a FIFO or another's file: the agent is unconfined (AgentFolderEntries).
            do {
                output = try AgentFolderEntries.openLog(in: directory, name: request.appID + ".log")
            } catch {
                throw SpawnError(error)
            }
        }
        defer { if output >= 0 { close(output) } }

        // Its own process group; the spawning thread may be a runtime thread that blocks
        // signals: the app starts with none blocked, so it can be stopped like any program.
        do {
            return try ChildSpawn.start(configuration.launcher, arguments: arguments, environment: environment,
                                        defaultSignals: [SIGINT, SIGTERM, SIGHUP, SIGPIPE], ownProcessGroup: true) { actions in
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                if output >= 0 {
                    posix_spawn_file_actions_adddup2(&actions, output, 1)
                    posix_spawn_file_actions_adddup2(&actions, output, 2)
                }
            }
        } catch {
            throw SpawnError(what: "cannot start \(configuration.launcher)", errno: error.errno)
        }
    }

    /// Starts the app from a thread of its own, which then waits for it and reports how it
    /// ended; returns once the start succeeded or failed.
    ///
    /// Why not the caller's thread: bubblewrap's `--die-with-parent` is `PR_SET_PDEATHSIG`, and
    /// Linux sends that signal when the *thread* that started the process ends, not the process
    /// (prctl(2)). The caller runs on a pooled runtime thread, which the pool ends after a few
    /// idle seconds: the app was then killed (SIGKILL, no output) at an arbitrary moment, e.g. a
    /// launched app waiting on its observer query on a loaded machine. This thread ends only after
    /// the app has.
    private func spawnOnWatcherThread(_ request: LaunchRequest, launchReported: DispatchSemaphore) -> Result<pid_t, SpawnError> {
        let started = SpawnResult()
        let thread = Thread { [self] in
            let result = Result { () throws(SpawnError) in try spawn(request) }
            started.publish(result)
            if case let .success(pid) = result { reap(pid, request: request, after: launchReported) }
        }
        thread.name = "agent-app-watcher"
        thread.start()
        return started.wait()
    }

    /// Waits for the child `pid` and reports how it ended (on the thread that started it), once
    /// `launchReported` says its launch outcome has been delivered.
    private func reap(_ pid: pid_t, request: LaunchRequest, after launchReported: DispatchSemaphore) {
        let appID = request.appID
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        running.withLock { running in
            if running[appID] == pid { running[appID] = nil }
        }
        let signal = status & 0x7F
        report(signal == 0 ? "\(appID) exited with status \((status >> 8) & 0xFF)" : "\(appID) was killed by signal \(signal)")
        launchReported.wait()
        onExit(LaunchOutcome(requestID: request.requestID, kind: .exited, appID: appID, pid: pid,
                             exitStatus: signal == 0 ? (status >> 8) & 0xFF : -signal))
    }

    /// The watcher thread's start result, handed to the launching thread.
    private final class SpawnResult: Sendable {
        private let value = Mutex<Result<pid_t, SpawnError>?>(nil)
        private let ready = DispatchSemaphore(value: 0)

        func publish(_ result: Result<pid_t, SpawnError>) {
            value.withLock { $0 = result }
            ready.signal()
        }

        func wait() -> Result<pid_t, SpawnError> {
            ready.wait()
            return value.withLock { $0 } ?? .failure(SpawnError(what: "the app's watcher thread gave no result", errno: EINVAL))
        }
    }

    struct SpawnError: Error, CustomStringConvertible {
        let description: String

        init(what: String, errno: Int32) {
            description = "\(what): \(String(cString: strerror(errno)))"
        }

        init(_ refusal: AgentFolderEntries.Refusal) {
            description = refusal.description
        }
    }
}
