import CSandbox
import Foundation
import Glibc
import HealthIPC
import HealthModel
public import HealthWire

/// `health-sandbox run`: obtain a connection bound to the app from the broker, confine this
/// thread, exec the app with the connection inherited.
public enum AppLauncher {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public let exitCode: Int32

        public init(description: String, exitCode: Int32) {
            self.description = description
            self.exitCode = exitCode
        }
    }

    /// Asks the broker (admin socket) for a connection bound to `appID`. Returns its descriptor
    /// and what the broker says about the binding (the app's sandbox uid).
    public static func obtainBoundSocket(appID: String, adminSocket: String) throws(Failure) -> (descriptor: Int32, binding: LaunchBinding) {
        let client: RPCClient
        do {
            client = try RPCClient(fd: BrokerSocket.connect(path: adminSocket), acceptsDescriptors: true)
        } catch where error.isImpostorSuspected {
            throw Failure(description: "will not ask \(adminSocket) to bind \(appID): \(error)", exitCode: 77)
        } catch {
            throw Failure(description: "cannot reach healthd at \(adminSocket): \(error) — is healthd running?", exitCode: 69)
        }
        defer { client.close() }
        let result = BlockingCall.run { try await client.unary(HealthManagerMethod.launchBind.rawValue, AppGrants(appID: appID).wireBytes()) }
        switch result {
        case let .success(reply):
            guard let descriptor = client.takeReceivedDescriptor() else {
                throw Failure(description: "healthd answered without passing a socket", exitCode: 70)
            }
            guard let binding = try? LaunchBinding(wire: reply), binding.appID == appID else {
                close(descriptor)
                throw Failure(description: "healthd's answer to the launch binding of \(appID) is not one for that app", exitCode: 70)
            }
            return (descriptor, binding)
        case let .failure(error):
            // healthd's words may quote an installed manifest: shown, never obeyed by the terminal.
            let message = TerminalEscape.shown((error as? RPCStatus)?.message ?? "\(error)")
            throw Failure(description: "healthd refused to bind \(appID): \(message)", exitCode: 77)
        }
    }

    /// Stage one of `health-sandbox run`: runs bubblewrap, which puts the app in namespaces of
    /// its own (`NamespaceLayout`) and runs stage two, `health-sandbox confine`, inside them. Only
    /// `boundSocket` and stdio reach bubblewrap. When standard output or error is a terminal,
    /// the app gets a pipe there and this process stays, as bubblewrap's parent, to relay it
    /// (`TerminalRelay`); otherwise this process becomes bubblewrap. With `identity` (root
    /// launching), first hands `dataFolder` to the app's own uid and becomes that uid. Refuses,
    /// rather than run the app less confined, when bubblewrap is missing, the uid switch fails or
    /// the kernel refuses user namespaces (checked after the switch: as the app's uid). Returns
    /// only on failure.
    public static func execInNamespaces(appID: String, executable: String, arguments: [String], boundSocket: Int32, policy: LaunchPolicy,
                                        minimumLandlockABI: Int32, identity: AppIdentitySwitch?, dataFolder: String?,
                                        network: Bool, maskedFolders: [String] = []) -> Failure {
        guard let bubblewrap = NamespaceLayout.bubblewrapCandidates.first(where: { access($0, X_OK) == 0 }) else {
            return Failure(description: "bubblewrap is not installed (looked for \(NamespaceLayout.bubblewrapCandidates.joined(separator: ", "))); "
                           + "install it (Debian: apt-get install bubblewrap): apps run only in namespaces of their own", exitCode: 71)
        }
        // Before the uid switch: as root, the app's uid could not open root's terminal again.
        let relay: TerminalRelay?
        do {
            try TerminalDetach.apply()
            relay = try TerminalRelay.prepare(appID: appID)
        } catch {
            return Failure(description: "\(error)", exitCode: 71)
        }
        // Asked before the uid switch (the kernel may refuse namespaces to everyone) and, for
        // root, again after it: Debian's `kernel.unprivileged_userns_clone` = 0 allows root but not
        // the app's uid.
        if let refusal = userNamespaceRefusal() { return refusal }
        if let identity {
            do {
                if let dataFolder { try identity.handOver(dataFolder: dataFolder) }
                try identity.apply()
            } catch {
                return Failure(description: error.description, exitCode: 71)
            }
            if let refusal = userNamespaceRefusal() { return refusal }
        }
        guard let launcher = LaunchAgent.launcherPath() else {
            return Failure(description: "cannot find this program's own path in /proc/self/exe", exitCode: 70)
        }
        let layout = NamespaceLayout(launcher: launcher, executable: executable, arguments: arguments, boundSocket: boundSocket,
                                     policy: policy, minimumLandlockABI: minimumLandlockABI, launchedByRoot: identity != nil, network: network,
                                     workingDirectory: FileManager.default.currentDirectoryPath, maskedFolders: maskedFolders)
        var message = [CChar](repeating: 0, count: 512)
        guard ohk_keep_only_fds([boundSocket], 1, &message, message.count) == 0 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return Failure(description: "cannot prepare the descriptors for the app: \(text)", exitCode: 71)
        }
        var environment = ProcessInfo.processInfo.environment
        environment[LaunchEnvironment.socketDescriptorVariable] = String(boundSocket)
        // Paths of healthd's sockets mean nothing inside: the socket folder is not mounted there.
        environment[LaunchEnvironment.appSocketPathVariable] = nil
        environment[LaunchEnvironment.adminSocketPathVariable] = nil
        guard let relay else {
            return execute(bubblewrap, arguments: [bubblewrap] + layout.bubblewrapArguments(), environment: environment)
        }
        let child: pid_t
        do {
            child = try spawn(bubblewrap, arguments: [bubblewrap] + layout.bubblewrapArguments(), environment: environment, relay: relay)
        } catch {
            return error
        }
        relay.run(child: child, boundSocket: boundSocket)
    }

    /// Starts `executable` with the relay's pipes as its terminal outputs, from this thread (it
    /// waits for the child: see `SandboxedAppSpawner.spawnOnWatcherThread`), as an exec would
    /// leave it (`ChildSpawn`), SIGQUIT at its default too: the relay passes it on to the child.
    private static func spawn(_ executable: String, arguments: [String], environment: [String: String],
                              relay: TerminalRelay) throws(Failure) -> pid_t {
        do {
            return try ChildSpawn.start(executable, arguments: arguments, environment: environment,
                                        defaultSignals: [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE], ownProcessGroup: false) { actions in
                relay.addRedirections(to: &actions)
            }
        } catch {
            throw Failure(description: "cannot execute \(executable): \(error.reason)", exitCode: 126)
        }
    }

    private static func userNamespaceRefusal() -> Failure? {
        let namespaceErrno = ohk_user_namespace_errno()
        guard namespaceErrno != 0 else { return nil }
        return Failure(description: UserNamespaceRefusal(errno: namespaceErrno).description, exitCode: 71)
    }

    /// Stage two, inside the namespaces: confines the calling thread and replaces the process
    /// with `executable` (an absolute path) run with `arguments` (argv, including argv[0]).
    /// Returns only on failure.
    public static func confineAndExec(executable: String, arguments: [String], boundSocket: Int32, policy: LaunchPolicy,
                                      minimumLandlockABI: Int32, network: Bool) -> Failure {
        var environment = ProcessInfo.processInfo.environment
        environment[LaunchEnvironment.socketDescriptorVariable] = String(boundSocket)
        // Swift's crash backtracer runs as a separate program, which Landlock (rightly) does not
        // let the app execute; without this a crashing Swift app stalls instead of exiting.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        // Stage one checked the policy (`LaunchPolicy.checked`); this holds for what reaches
        // Landlock here, the private /tmp included, whoever built the command line.
        if let overlap = policy.writableBeneathExecutable() {
            return Failure(description: "cannot confine the app: the writable path \(overlap.writable) lies in \(overlap.executable), "
                           + "which the app may execute from: the app could run what it writes there", exitCode: 71)
        }
        let confinement = Confinement(keepDescriptors: [boundSocket], readExecutePaths: policy.readExecutePaths,
                                      readWritePaths: policy.readWritePaths, minimumLandlockABI: minimumLandlockABI,
                                      allowNetwork: network)
        let outcome = confinement.confineCallingThread()
        guard outcome.succeeded else {
            return Failure(description: "cannot confine the app: \(outcome.message)", exitCode: 71)
        }
        return execute(executable, arguments: arguments, environment: environment)
    }

    private static func execute(_ executable: String, arguments: [String], environment: [String: String]) -> Failure {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve(executable, argv, envp)
        return Failure(description: "cannot execute \(executable): \(String(cString: strerror(errno)))", exitCode: 126)
    }

    /// An absolute path for `name`: as given if it contains a slash, else searched in PATH.
    public static func resolveExecutable(_ name: String) -> String? {
        if name.contains("/") {
            let path = name.hasPrefix("/") ? name : FileManager.default.currentDirectoryPath + "/" + name
            return access(path, X_OK) == 0 ? (path as NSString).standardizingPath : nil
        }
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") {
            let path = "\(directory)/\(name)"
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }
}

/// Runs an async call to completion from synchronous code, on this thread's behalf: the launcher
/// must confine and exec on the thread that made the call, so it cannot hop into async main.
enum BlockingCall {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return box.get()
    }

    private final class ResultBox<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<T, any Error>?
        func set(_ value: Result<T, any Error>) { lock.withLock { result = value } }
        func get() -> Result<T, any Error> { lock.withLock { result! } }
    }
}
