public import Foundation
public import Glibc

/// A real healthd — the release build next to the running benchmark — started on a store the
/// benchmark filled beforehand. The three full-stack benchmarks (privacy-bench, broker-bench,
/// stack-bench) start, watch and stop it through this one type.
public struct HealthdProcess: Sendable {
    public let pid: pid_t

    /// Starts healthd on `store` with its sockets in `socketDirectory`, stderr appended to
    /// `logPath` (nil: this process's stderr), and returns once it serves: `healthd.pid` appears
    /// after both sockets listen (a socket file alone exists between bind and listen, when a
    /// connect is refused).
    public static func start(store: String, socketDirectory: String, logLevel: String, logPath: String?,
                             timeout: TimeInterval = 60) throws -> HealthdProcess {
        let healthd = (CommandLine.executablePath as NSString).deletingLastPathComponent + "/healthd"
        let marker = socketDirectory + "/healthd.pid"
        for stale in ["/app.sock", "/admin.sock", "/healthd.pid"] { unlink(socketDirectory + stale) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var log: Int32 = -1
        if let logPath {
            log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard log >= 0 else { throw BenchFailed("cannot open \(logPath): \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, log, 2)
        }
        defer { if log >= 0 { close(log) } }
        let arguments = [healthd, "--store", store, "--socket-dir", socketDirectory, "--log-level", logLevel]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var spawned: pid_t = 0
        let result = posix_spawn(&spawned, healthd, &actions, nil, argv, environ)
        guard result == 0 else { throw BenchFailed("cannot start \(healthd): \(String(cString: strerror(result)))") }
        let process = HealthdProcess(pid: spawned)
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: marker) {
            guard process.isRunning else {
                throw BenchFailed("healthd exited before serving" + (logPath.map { "; see \($0)" } ?? ""))
            }
            guard Date() < deadline else { throw BenchFailed("healthd did not serve within \(Int(timeout)) s") }
            usleep(20_000)
        }
        return process
    }

    public var isRunning: Bool { kill(pid, 0) == 0 }

    /// Stops healthd (SIGTERM) and waits for it to exit, so its store is free.
    public func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// A memory field of /proc/PID/status (`VmRSS`, `VmHWM`) in MiB; NaN when unreadable.
    public func memoryMiB(_ field: String) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return .nan }
        return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan) / 1024
    }

    /// The on-CPU time of all of healthd's threads so far, in nanoseconds (the first field of
    /// each `/proc/PID/task/TID/schedstat`). Unlike wall-clock time it does not grow while healthd
    /// waits for a core other work holds, so it shows extra work done on a loaded machine.
    /// Threads that have exited take their time with them; healthd's pool threads live as long
    /// as it does.
    public var cpuNanoseconds: UInt64 {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return 0 }
        var total: UInt64 = 0
        for thread in threads {
            guard let text = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8),
                  let field = text.split(separator: " ").first, let nanoseconds = UInt64(field) else { continue }
            total += nanoseconds
        }
        return total
    }
}

public struct BenchFailed: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension CommandLine {
    /// This executable's path as the kernel reports it (what healthd matches manifests against).
    public static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? arguments[0]
    }
}
