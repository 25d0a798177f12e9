public import Foundation
import Glibc
import Synchronization

/// A child process started with posix_spawn and reaped with waitpid on its own pid.
///
/// The tests do not use Foundation's `Process`: with several children running at once its
/// SIGCHLD-driven reaping left exited children as zombies that `isRunning` still reported as
/// running, so tests waited out their deadlines. Here each child is waited for by pid, and
/// nothing else in the process reaps it.
///
/// Each child is started from a thread of its own that lives until the child has exited: the
/// sandboxed clients run under bubblewrap's `--die-with-parent`, which is `PR_SET_PDEATHSIG`,
/// and Linux sends that signal when the *thread* that started the process ends (prctl(2)).
/// Started from the caller's pooled thread, a client was killed (SIGKILL, exit 137) whenever
/// the pool retired that thread: traced with the kernel's signal_generate event, the sender was
/// the exiting dispatch worker that had forked the client's bubblewrap (LeakProbeTests' CI
/// failure at the session 12 close, a workout-effort client at command 3 before it).
///
/// Every child dies with the test process: it is started through util-linux's
/// `setpriv --pdeathsig KILL`, which sets the parent-death signal and execs the executable (same
/// pid), so when the thread that started it ends — which it does only when the child has exited
/// or the test process is gone, killed or exited with a child still running — the kernel kills
/// the child. Before, a healthd that a test kept past its end (`StatementBudgetEndToEndTests`'
/// static world, a test process killed by its time limit or by hand) ran on after the test
/// process, with its peer inspector, one more per run. healthd itself has no option for this:
/// the signal is a test harness's concern, set from outside, never a flag a user could misuse.
/// The signal is cleared when a child changes its user (`setpriv --reuid`, as `EscapeUser` does):
/// such a command sets it again after the change.
public final class ChildProcess: Sendable {
    /// The program that starts every child with a parent-death signal.
    public static let parentDeathLauncher = "/usr/bin/setpriv"
    /// `setpriv`'s options before the child's executable: the signal to receive when the
    /// starting thread ends.
    public static let parentDeathOptions = ["--pdeathsig", "KILL", "--"]

    public let pid: pid_t
    private let record: ExitRecord

    /// Starts `executable`. Standard input, output and error go to the given descriptors (which
    /// the caller keeps and closes); nil means /dev/null.
    /// `descriptors`: more descriptors the child inherits, by the number it sees them under
    /// (e.g. [3: listener] for socket activation); the caller keeps and closes its own.
    /// `beforeSpawn` runs on the starting thread right before posix_spawn (after that thread took
    /// its own pid): a test choosing the child's pid through `ns_last_pid` writes it there.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
         stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil, descriptors: [Int32: Int32] = [:],
         beforeSpawn: (@Sendable () -> Void)? = nil) throws {
        let record = ExitRecord()
        self.record = record
        let started = Mutex<Result<pid_t, SpawnFailed>?>(nil)
        let startedSignal = DispatchSemaphore(value: 0)
        let thread = Thread {
            beforeSpawn?()
            let result = Result { () throws(SpawnFailed) in
                try Self.spawn(executable, arguments, environment: environment, stdin: stdin, stdout: stdout,
                               stderr: stderr, descriptors: descriptors)
            }
            started.withLock { $0 = result }
            startedSignal.signal()
            guard case let .success(pid) = result else { return }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            // Exit code, or 128 + signal like a shell.
            let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            record.status.withLock { $0 = code }
            record.exited.signal()
        }
        thread.name = "child-process-watcher"
        thread.start()
        startedSignal.wait()
        switch started.withLock({ $0 }) {
        case let .success(pid): self.pid = pid
        case let .failure(failure): throw failure
        case nil: throw SpawnFailed(executable: executable, reason: "the starting thread reported nothing")
        }
    }

    private static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                              stdin: Int32?, stdout: Int32?, stderr: Int32?, descriptors: [Int32: Int32]) throws(SpawnFailed) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Each source first gets a number above every target, so that no dup2 below overwrites a
        // source before it is copied, and a source that already has its target's number still
        // loses close-on-exec (dup2 onto itself would not clear it).
        let staged = descriptors.map { target, source in (target, fcntl(source, F_DUPFD_CLOEXEC, 100)) }
        defer { staged.forEach { if $0.1 >= 0 { close($0.1) } } }
        for (target, source) in staged {
            guard source >= 0 else { throw SpawnFailed(executable: executable, reason: "cannot stage fd \(target): \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, source, target)
        }
        for (source, target, mode) in [(stdin, Int32(0), O_RDONLY), (stdout, 1, O_WRONLY), (stderr, 2, O_WRONLY)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
            }
        }
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        // What posix_spawn of the executable itself would report, now that setpriv is what is
        // spawned (its own failure to exec would only show as an exit status).
        guard access(executable, X_OK) == 0 else {
            throw SpawnFailed(executable: executable, reason: String(cString: strerror(errno)))
        }
        let argv = ([parentDeathLauncher] + parentDeathOptions + [executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var spawned: pid_t = 0
        let result = posix_spawn(&spawned, parentDeathLauncher, &actions, nil, argv, envp)
        guard result == 0 else {
            throw SpawnFailed(executable: executable, reason: String(cString: strerror(result)))
        }
        return spawned
    }

    public var isRunning: Bool { record.status.withLock { $0 } == nil }

    public func signal(_ signal: Int32) { if isRunning { kill(pid, signal) } }

    /// Waits for the child to exit; kills it (SIGKILL) if it has not after `timeout` seconds.
    @discardableResult
    public func wait(timeout: TimeInterval = 60) async -> Int32 {
        let exited = record.exited
        let finished = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: exited.wait(timeout: .now() + timeout) == .success)
            }
        }
        if !finished {
            kill(pid, SIGKILL)
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    exited.wait()
                    continuation.resume()
                }
            }
        }
        exited.signal()  // leave it signalled for any later wait
        return record.status.withLock { $0 } ?? -1
    }

    /// Synchronous wait, for deinit paths.
    public func waitBlocking() {
        record.exited.wait()
        record.exited.signal()
    }
}

/// How a child ended, written by the thread that started and waits for it.
private final class ExitRecord: Sendable {
    let status = Mutex<Int32?>(nil)
    let exited = DispatchSemaphore(value: 0)
}

public struct SpawnFailed: Error, CustomStringConvertible {
    public let executable: String
    public let reason: String
    public var description: String { "cannot start \(executable): \(reason)" }
}
