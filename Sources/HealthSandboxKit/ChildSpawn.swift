import Glibc

/// Starts a child the way an exec from a plain shell would leave it: no signal blocked, and the
/// signals a program expects to stop it at their default disposition. The one set-up the launch
/// agent's apps (`SandboxedAppSpawner`) and the terminal relay's bubblewrap (`AppLauncher`) share.
///
/// Why: the spawning thread may be a runtime thread that blocks signals, or this process may
/// have been started with some ignored (a shell's background job ignores SIGINT), and a child
/// inherits the mask and ignored dispositions across posix_spawn: without this an app could
/// not be stopped with Ctrl-C or `kill`. The child is started from the calling thread; callers that confine it with
/// `--die-with-parent` call this from a thread that outlives it (`spawnOnWatcherThread`).
enum ChildSpawn {
    /// posix_spawn's error number when the child could not be started.
    struct Failure: Error {
        let errno: Int32
        var reason: String { String(cString: strerror(errno)) }
    }

    /// Starts `executable` (an absolute path) with `arguments` (argv, argv[0] included) and
    /// exactly `environment`. `defaultSignals` start at their default disposition; with
    /// `ownProcessGroup` the child leads a process group of its own (a Ctrl-C meant for this
    /// process does not reach it). `fileActions` adds the child's descriptor set-up.
    static func start(_ executable: String, arguments: [String], environment: [String: String], defaultSignals: [Int32],
                      ownProcessGroup: Bool, fileActions: (inout posix_spawn_file_actions_t) -> Void) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        fileActions(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in defaultSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failure(errno: result) }
        return pid
    }
}
