import BenchSupport
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
    let healthd: HealthdProcess
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

        healthd = try HealthdProcess.start(store: directory + "/store", socketDirectory: directory + "/run", logLevel: "error",
                                           logPath: directory + "/healthd.log")
    }

    /// healthd's resident set in MiB (/proc/PID/status VmRSS).
    var residentMiB: Double { healthd.memoryMiB("VmRSS") }

    /// healthd's CPU time so far in seconds, exited threads included: utime + stime of
    /// `/proc/PID/stat` (fields 14 and 15, counted after the command name's closing parenthesis,
    /// which may hold spaces), in clock ticks.
    var processCPUSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(healthd.pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return .nan }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After ")": state is field 3, so utime (14) and stime (15) are at offsets 11 and 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Confines every healthd thread to the given CPUs (`taskset -a -p -c`); threads it starts
    /// later inherit the mask from the thread that starts them.
    func pin(cpus: String) throws {
        _ = try Spawn.run("/usr/bin/taskset", ["-a", "-p", "-c", cpus, "\(healthd.pid)"])
    }

    func stop() {
        healthd.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
