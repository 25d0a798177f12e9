import Foundation

/// The bubblewrap command line that gives an app namespaces of its own and a minimal file
/// system, then runs the second stage (`health-sandbox confine`) inside them, which applies
/// no_new_privs, Landlock, seccomp and the descriptor policy and execs the app.
///
/// Decided here, in Swift; bubblewrap (Debian `bubblewrap`, what Flatpak builds on) does the
/// namespace and mount work, which is subtle enough to leave to a well-kept tool.
///
/// What the app sees: `/usr` read-only (and `/lib*`, `/bin`, `/sbin` as on the host: links
/// into it on a merged-/usr system), the few `/etc` files the loader and libc read, every
/// other read-execute path of the `LaunchPolicy` (the Swift runtime, the app's executable file,
/// `--allow-read`) read-only at the same path, the read-write paths (`--allow-write`, `--data`)
/// writable, a private `/tmp`, a `/proc` of its own pid namespace and a minimal `/dev`. Nothing
/// else: not the store, not the socket folder, not the user's home, no other process.
/// `LaunchPolicy.checked` refuses any path that would show those; as a second layer, each
/// `maskedFolders` entry beneath a bound folder is covered with an empty read-only tmpfs after
/// the binds (bwrap mounts in order).
public struct NamespaceLayout: Sendable, Equatable {
    /// Where bubblewrap is looked for; never searched in PATH, which the caller controls.
    public static let bubblewrapCandidates = ["/usr/bin/bwrap", "/usr/local/bin/bwrap"]

    /// The uid and gid an app launched by root has inside its user namespace, so that root
    /// never hands uid 0 to the app (no capabilities either way: `--cap-drop ALL`).
    public static let unprivilegedID: UInt32 = 65534

    /// The files of /etc the loader and libc need; nothing else of /etc is visible.
    static let etcFiles = ["/etc/ld.so.cache", "/etc/localtime", "/etc/nsswitch.conf", "/etc/host.conf"]

    /// Trees the base layout already provides (or replaces), so policy paths beneath them are not bound again.
    static let providedTrees = ["/usr", "/proc", "/dev"]

    public var launcher: String
    public var executable: String
    /// argv of the app, argv[0] included (health-sandbox makes it the executable's path).
    public var arguments: [String]
    public var boundSocket: Int32
    public var policy: LaunchPolicy
    public var minimumLandlockABI: Int32
    public var launchedByRoot: Bool
    /// The app's manifest asks for the network and the user allowed it: the network namespace is
    /// the host's, and the second stage lets the app open internet sockets.
    public var network: Bool
    /// The launcher's working directory: kept for the app when it is one of the folders the app
    /// sees (its own, a data folder), so relative paths on its command line still work; else `/`.
    public var workingDirectory: String
    /// healthd's store and socket folders (`ProtectedFolders`): hidden even if a bound folder held them.
    public var maskedFolders: [String]

    public init(launcher: String, executable: String, arguments: [String], boundSocket: Int32, policy: LaunchPolicy,
                minimumLandlockABI: Int32, launchedByRoot: Bool, network: Bool = false, workingDirectory: String = "/",
                maskedFolders: [String] = []) {
        self.launcher = launcher
        self.executable = executable
        self.arguments = arguments
        self.boundSocket = boundSocket
        self.policy = policy
        self.minimumLandlockABI = minimumLandlockABI
        self.launchedByRoot = launchedByRoot
        self.network = network
        self.workingDirectory = workingDirectory
        self.maskedFolders = maskedFolders
    }

    /// bwrap's arguments (without argv[0]).
    public func bubblewrapArguments() -> [String] {
        // All namespaces; user explicitly, so that root, for whom bwrap would otherwise skip it,
        // gets one too. The network namespace is the host's only for an app given the network.
        var result = ["--unshare-all", "--unshare-user", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
        if network { result.append("--share-net") }
        if launchedByRoot {
            result += ["--uid", String(Self.unprivilegedID), "--gid", String(Self.unprivilegedID)]
        }
        result += ["--ro-bind", "/usr", "/usr"]
        for top in ["/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin"] {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: top) {
                result += ["--symlink", target, top]
            } else if FileManager.default.fileExists(atPath: top) {
                result += ["--ro-bind", top, top]
            }
        }
        result += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
        for file in Self.etcFiles { result += ["--ro-bind-try", file, file] }
        result += ["--ro-bind-try", "/sys/devices/system/cpu", "/sys/devices/system/cpu"]
        result += binds()
        result += masks()
        result += ["--chdir", visibleWorkingDirectory(), "--", launcher] + confineArguments()
        return result
    }

    /// `confine …` for the second stage: the same policy, now meant for paths inside the
    /// namespace (which are the same paths), plus the private /tmp as writable.
    func confineArguments() -> [String] {
        var result = ["confine", "--fd", String(boundSocket), "--landlock-abi", String(minimumLandlockABI)]
        if network { result.append("--network") }
        result += policy.readExecutePaths.flatMap { ["--read-exec", $0] }
        result += (policy.readWritePaths + ["/tmp"]).flatMap { ["--read-write", $0] }
        // `confine` execs its first argument after -- with all of them as argv.
        return result + ["--", executable] + arguments.dropFirst()
    }

    /// Read-only binds for read-execute paths and the launcher, read-write binds for read-write
    /// paths, parents before children (bwrap mounts in order, and a later mount hides what
    /// an earlier one put beneath it).
    func binds() -> [String] {
        var mounts: [(path: String, writable: Bool)] = []
        for path in policy.readExecutePaths + [launcher] where !isProvided(path) { mounts.append((path, false)) }
        for path in policy.readWritePaths where !isProvided(path) { mounts.append((path, true)) }
        var seen = Set<String>()
        mounts = mounts.filter { seen.insert($0.path).inserted }
        mounts.sort { depth($0.path) < depth($1.path) || (depth($0.path) == depth($1.path) && $0.path < $1.path) }
        return mounts.flatMap { [$0.writable ? "--bind" : "--ro-bind", $0.path, $0.path] }
    }

    /// An empty read-only tmpfs over each masked folder that is or lies beneath a bound
    /// folder (elsewhere it is absent already — the private /tmp included — and mounting there
    /// would only make it appear).
    func masks() -> [String] {
        let bound = policy.readExecutePaths + policy.readWritePaths
        return maskedFolders.filter { folder in
            folder.hasPrefix("/") && bound.contains { folder == $0 || folder.hasPrefix($0 == "/" ? "/" : $0 + "/") }
        }.flatMap { ["--tmpfs", $0, "--remount-ro", $0] }
    }

    /// Beneath /usr, /proc or /dev (also through a link such as /lib -> usr/lib), or an /etc
    /// file bound already: the base layout has it.
    private func isProvided(_ path: String) -> Bool {
        if Self.etcFiles.contains(path) || path == "/sys/devices/system/cpu" { return true }
        let resolved = (path as NSString).resolvingSymlinksInPath
        return Self.providedTrees.contains { tree in
            [path, resolved].contains { $0 == tree || $0.hasPrefix(tree + "/") }
        }
    }

    /// `workingDirectory` if a bound or provided path contains it, else `/`.
    func visibleWorkingDirectory() -> String {
        let visible = policy.readExecutePaths + policy.readWritePaths
        let inside = visible.contains { workingDirectory == $0 || workingDirectory.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        return inside && workingDirectory.hasPrefix("/") ? workingDirectory : "/"
    }

    private func depth(_ path: String) -> Int { path.split(separator: "/").count }
}
