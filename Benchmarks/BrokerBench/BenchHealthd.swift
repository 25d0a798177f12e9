import Foundation
import Glibc
import HealthModel
import HealthStore

/// A real healthd (release build, next to this executable) on a store filled beforehand: the
/// hostile app (this executable) with `samples` step counts it may read, and the well-behaved
/// app (a copy of this executable at another path, so another app to healthd).
final class BenchHealthd: Sendable {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    let directory: String
    let pid: pid_t
    let bystanderExecutable: String
    /// A copy that is no installed app: its connections are refused.
    let strangerExecutable: String
    var appSocket: String { directory + "/run/app.sock" }
    var adminSocket: String { directory + "/run/admin.sock" }

    init(samples: Int) async throws {
        directory = NSTemporaryDirectory() + "broker-bench-" + UUID().uuidString.prefix(8)
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: directory + "/store", withIntermediateDirectories: true)
        bystanderExecutable = directory + "/bystander/broker-bench"
        strangerExecutable = directory + "/stranger/broker-bench"
        for copy in [bystanderExecutable, strangerExecutable] {
            try fileManager.createDirectory(atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try fileManager.copyItem(atPath: CommandLine.executablePath, toPath: copy)
        }
        let hostile = AppManifest(id: "org.bench.hostile", displayName: "Hostile", executable: CommandLine.executablePath,
                                  version: "1", readUsageDescription: "bench", shareUsageDescription: "bench")
        let bystander = AppManifest(id: "org.bench.bystander", displayName: "Bystander", executable: bystanderExecutable,
                                    version: "1", readUsageDescription: "bench", shareUsageDescription: "bench")
        let store = try EncryptedDatabase.open(directory: directory + "/store")
        let database = try HealthDatabase(writer: store.writer)
        _ = try database.apps.install(hostile)
        _ = try database.apps.install(bystander)
        try database.grants.apply(appID: hostile.id, [GrantDecision(Self.steps, .read, .authorized)])
        // Both connect to the app socket by themselves, identified by their executables.
        for app in [hostile, bystander] { _ = try database.apps.setDirectConnections(appID: app.id, allowed: true) }
        let source = SourceRecord(bundleIdentifier: hostile.id, name: hostile.displayName, version: hostile.version)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        var inserted = 0
        while inserted < samples {
            let batch = (inserted..<min(samples, inserted + 10_000)).map { index in
                SampleRecord(uuid: UUID(), typeIdentifier: Self.steps, startDate: start.addingTimeInterval(Double(index) * 30),
                             endDate: start.addingTimeInterval(Double(index) * 30 + 30), value: .quantity(12, unit: "count"))
            }
            _ = try await database.samples.insert(batch, source: source)
            inserted += batch.count
        }
        try store.close()

        let directoryOfTools = (CommandLine.executablePath as NSString).deletingLastPathComponent
        let healthd = directoryOfTools + "/healthd"
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
        let deadline = Date().addingTimeInterval(30)
        while !fileManager.fileExists(atPath: appSocket) || !fileManager.fileExists(atPath: adminSocket) {
            guard Date() < deadline else { throw BenchFailed("healthd did not create its sockets within 30 s") }
            usleep(20_000)
        }
    }

    /// healthd's resident set now and at its peak, in MiB (/proc/PID/status VmRSS, VmHWM).
    var memory: (rss: Double, peak: Double) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Double {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return .nan }
            return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan) / 1024
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    var isRunning: Bool { kill(pid, 0) == 0 }

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
