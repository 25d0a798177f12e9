import Foundation
import Glibc
import HealthModel
import HealthStore

/// A real healthd on a store this process filled beforehand: the probing app installed (its
/// executable is privacy-bench itself, so it connects by credential binding), its grants set,
/// its own samples and `hidden` samples of each probed type from another source.
final class BenchBroker {
    let directory: String
    let pid: pid_t
    var appSocket: String { directory + "/run/app.sock" }

    /// Read grants of the probing app: step count denied, heart rate for the last 30 days.
    static func grants() -> [GrantDecision] {
        [GrantDecision(BenchData.steps, .read, .denied),
         GrantDecision(BenchData.heartRate, .read, .authorized, limits: GrantLimits(dataWindow: 30 * 86_400))]
    }

    init(app: AppManifest, hidden: Int) async throws {
        directory = NSTemporaryDirectory() + "privacy-bench-broker-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory + "/store", withIntermediateDirectories: true)
        let store = try EncryptedDatabase.open(directory: directory + "/store")
        let database = try HealthDatabase(writer: store.writer)
        _ = try database.apps.install(app)
        try database.grants.apply(appID: app.id, Self.grants())
        let source = SourceRecord(bundleIdentifier: app.id, name: app.displayName, version: app.version)
        for type in [BenchData.steps, BenchData.heartRate] {
            _ = try await database.samples.insert(BenchData.own(type, spreadOver: hidden), source: source)
            try await BenchData.insertHidden(type, count: hidden, into: database)
        }
        try store.close()

        let healthd = (CommandLine.executablePath as NSString).deletingLastPathComponent + "/healthd"
        let arguments = [healthd, "--store", directory + "/store", "--socket-dir", directory + "/run", "--log-level", "warning"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var spawned: pid_t = 0
        let result = posix_spawn(&spawned, healthd, nil, nil, argv, environ)
        guard result == 0 else { throw BenchFailed("cannot start \(healthd): \(String(cString: strerror(result)))") }
        pid = spawned
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: appSocket) {
            guard Date() < deadline else { throw BenchFailed("healthd did not create \(appSocket) within 30 s") }
            usleep(20_000)
        }
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
