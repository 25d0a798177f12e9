import Foundation
import GRDB
import Glibc
import HealthModel
import HealthStore

/// A real healthd (the release build next to this executable) on an encrypted store filled
/// beforehand with `StackData`, and a plain SQLite file with the same rows for the raw queries.
/// Installed apps: this executable (reads steps and heart rate, shares active energy) and four
/// copies of it at other paths (writers: share active energy), so 64 writer processes stay
/// within the 16 connections healthd allows one app.
final class StackHealthd: Sendable {
    static let writerApps = 4
    let directory: String
    let pid: pid_t
    let writerExecutables: [String]
    var appSocket: String { directory + "/run/app.sock" }
    var plainStorePath: String { directory + "/plain.sqlite" }

    init(days: Int) async throws {
        directory = NSTemporaryDirectory() + "stack-bench-" + UUID().uuidString.prefix(8)
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: directory + "/store", withIntermediateDirectories: true)
        writerExecutables = (0..<Self.writerApps).map { "\(NSTemporaryDirectory())stack-bench-writers/\($0)/stack-bench" }
        for copy in writerExecutables {
            try? fileManager.removeItem(atPath: copy)
            try fileManager.createDirectory(atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try fileManager.copyItem(atPath: CommandLine.executablePath, toPath: copy)
        }
        let energy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
        let reader = AppManifest(id: "org.bench.stack", displayName: "Stack", executable: CommandLine.executablePath,
                                 version: "1", readUsageDescription: "bench", shareUsageDescription: "bench")
        let writers = writerExecutables.enumerated().map { index, path in
            AppManifest(id: "org.bench.writer\(index)", displayName: "Writer \(index)", executable: path,
                        version: "1", readUsageDescription: "bench", shareUsageDescription: "bench")
        }
        let store = try EncryptedDatabase.open(directory: directory + "/store")
        let database = try HealthDatabase(writer: store.writer)
        for app in [reader] + writers {
            _ = try database.apps.install(app)
            try database.grants.apply(appID: app.id, [GrantDecision(energy, .share, .authorized)])
            _ = try database.apps.setDirectConnections(appID: app.id, allowed: true)
        }
        try database.grants.apply(appID: reader.id, [GrantDecision(StackData.steps, .read, .authorized),
                                                     GrantDecision(StackData.heartRate, .read, .authorized),
                                                     GrantDecision(energy, .read, .authorized)])
        try await StackData.load(days: days, into: database)
        try store.close()
        let plain = try DatabaseQueue(path: directory + "/plain.sqlite")
        try await StackData.load(days: days, into: try HealthDatabase(writer: plain))
        try plain.close()

        let healthd = (CommandLine.executablePath as NSString).deletingLastPathComponent + "/healthd"
        let log = open(directory + "/healthd.log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        defer { close(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, log, 2)
        let arguments = [healthd, "--store", directory + "/store", "--socket-dir", directory + "/run", "--log-level", "error"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var spawned: pid_t = 0
        let result = posix_spawn(&spawned, healthd, &actions, nil, argv, environ)
        guard result == 0 else { throw BenchFailed("cannot start \(healthd): \(String(cString: strerror(result)))") }
        pid = spawned
        let deadline = Date().addingTimeInterval(60)
        while !fileManager.fileExists(atPath: appSocket) {
            guard Date() < deadline, kill(pid, 0) == 0 else { throw BenchFailed("healthd did not create its socket; see \(directory)/healthd.log") }
            usleep(20_000)
        }
    }

    /// healthd's resident set in MiB (/proc/PID/status VmRSS).
    var residentMiB: Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return .nan }
        return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan) / 1024
    }

    /// Confines every healthd thread to the given CPUs (`taskset -a -p -c`); threads it starts
    /// later inherit the mask from the thread that starts them.
    func pin(cpus: String) throws {
        _ = try Spawn.run("/usr/bin/taskset", ["-a", "-p", "-c", cpus, "\(pid)"])
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
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
