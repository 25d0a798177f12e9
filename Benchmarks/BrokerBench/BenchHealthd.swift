import Foundation
import Glibc
import BenchSupport
import HealthModel
import HealthStore

/// A real healthd (release build, next to this executable) on a store filled beforehand: the
/// hostile app (this executable) with `samples` step counts it may read, and the well-behaved
/// app (a copy of this executable at another path, so another app to healthd).
final class BenchHealthd: Sendable {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    let directory: String
    let healthd: HealthdProcess
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

        healthd = try HealthdProcess.start(store: directory + "/store", socketDirectory: directory + "/run", logLevel: "error",
                                           logPath: directory + "/healthd.log", timeout: 30)
    }

    /// healthd's resident set now and at its peak, in MiB (/proc/PID/status VmRSS, VmHWM).
    var memory: (rss: Double, peak: Double) { (healthd.memoryMiB("VmRSS"), healthd.memoryMiB("VmHWM")) }

    var isRunning: Bool { healthd.isRunning }

    func stop() {
        healthd.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
