import Foundation
import Glibc
import HealthIPC

/// A real healthd on a store this process filled beforehand (`BenchStoreBuilder`). The probing
/// app's executable is privacy-bench itself, so this process connects by credential binding.
/// healthd runs only while a read state is measured: the grants are changed in the store with
/// healthd stopped, since only the manager tools may use its admin socket.
final class BenchBroker {
    let directory: String
    private(set) var pid: pid_t = 0
    private(set) var client: RPCClient?
    var storeDirectory: String { directory + "/store" }
    var appSocket: String { directory + "/run/app.sock" }

    init(directory: String) {
        self.directory = directory
    }

    /// Starts healthd and connects to its app socket.
    func start() throws -> RPCClient {
        try? FileManager.default.removeItem(atPath: appSocket)
        let healthd = (CommandLine.executablePath as NSString).deletingLastPathComponent + "/healthd"
        let arguments = [healthd, "--store", storeDirectory, "--socket-dir", directory + "/run", "--log-level", "warning"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var spawned: pid_t = 0
        let result = posix_spawn(&spawned, healthd, nil, nil, argv, environ)
        guard result == 0 else { throw BenchFailed("cannot start \(healthd): \(String(cString: strerror(result)))") }
        pid = spawned
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: appSocket) {
            guard Date() < deadline else { throw BenchFailed("healthd did not create \(appSocket) within 60 s") }
            usleep(20_000)
        }
        let connected = try RPCClient.connect(path: appSocket)
        client = connected
        return connected
    }

    /// Disconnects and stops healthd (SIGTERM), waiting for it to exit so the store is free.
    func stop() {
        client?.close()
        client = nil
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        pid = 0
    }

    /// The on-CPU time of all of healthd's threads so far, in nanoseconds (the first field of
    /// each `/proc/PID/task/TID/schedstat`). Unlike wall-clock time it does not grow while healthd
    /// waits for a core the other engineers' builds hold, so it shows extra work done for
    /// hidden data on a loaded machine. Threads that have exited take their time with them;
    /// healthd's pool threads live as long as it does.
    var cpuNanoseconds: UInt64 {
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

    func remove() {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

struct BenchFailed: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension CommandLine {
    /// This executable's path as the kernel reports it (what healthd matches manifests against).
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? arguments[0]
    }
}
