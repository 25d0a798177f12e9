import Foundation
import TestSupport
import Glibc

/// A healthd that a test stops and starts again on the same store, with or without a passcode
/// (BrokerProcess runs one healthd on a fresh store for its whole life).
final class RestartableHealthd: @unchecked Sendable {
    let root: String
    let storeDirectory: String
    let socketDirectory: String
    private let logPath: String
    private var process: ChildProcess?

    var appSocket: String { socketDirectory + "/app.sock" }
    var adminSocket: String { socketDirectory + "/admin.sock" }
    var runningMarker: String { socketDirectory + "/healthd.pid" }
    /// Whether the healthd last started still runs (false after a crash).
    var isRunning: Bool { process?.isRunning ?? false }
    var storeArguments: [String] { ["--store", storeDirectory, "--socket-dir", socketDirectory, "--log-level", "info"] }

    /// `storeDirectory` defaults to `store` under a fresh temporary root (a disk-full test puts
    /// it on a small file system of its own).
    init(storeDirectory: String? = nil) throws {
        root = NSTemporaryDirectory() + "ohk-e2e-keys-" + UUID().uuidString.prefix(8)
        self.storeDirectory = storeDirectory ?? root + "/store"
        socketDirectory = root + "/run"
        logPath = root + "/healthd.log"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    }

    /// Starts healthd and waits for its sockets; `extraArguments` such as --passcode-file,
    /// `standardInput` written to its stdin (for --passcode-stdin).
    func start(_ extraArguments: [String] = [], standardInput: String? = nil) throws {
        // A previous run's socket files may still be there (healthd replaces them when it is
        // ready): waiting for the paths to exist must not be satisfied by those.
        unlink(appSocket)
        unlink(adminSocket)
        unlink(runningMarker)  // left behind by a killed healthd
        let log = open(logPath, O_WRONLY | O_APPEND | O_CLOEXEC)
        defer { close(log) }
        let input = try ProcessRun.pipe()
        let process = try ChildProcess(Products.path("healthd"), storeArguments + extraArguments, stdin: input.read, stderr: log)
        close(input.read)
        if let standardInput { _ = Array(standardInput.utf8).withUnsafeBytes { write(input.write, $0.baseAddress, $0.count) } }
        close(input.write)
        self.process = process
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            // healthd.pid is written after both sockets listen: a socket file alone can exist
            // between bind and listen, when connecting to it is refused.
            if FileManager.default.fileExists(atPath: adminSocket), FileManager.default.fileExists(atPath: appSocket),
               FileManager.default.fileExists(atPath: runningMarker) { return }
            guard process.isRunning else { throw BrokerFailed(log: "healthd exited: \(log)") }
            usleep(20_000)
        }
        throw BrokerFailed(log: "healthd did not create its sockets within 120 s")
    }

    /// Runs healthd expecting it to refuse to start; returns how it exited.
    func startRefused(_ extraArguments: [String] = []) async throws -> ProcessResult {
        try await ProcessRun.run(Products.path("healthd"), storeArguments + extraArguments, timeout: 30)
    }

    func stop() {
        guard let process, process.isRunning else { return }
        process.signal(SIGTERM)
        process.waitBlocking()
        self.process = nil
    }

    /// Stops healthd with SIGTERM and returns how it exited: its exit code, or 128 + the signal
    /// that ended it (139: SIGSEGV). SIGKILLs it after `timeout` seconds.
    func terminate(timeout: TimeInterval = 120) async -> Int32 {
        guard let process, process.isRunning else { return -1 }
        process.signal(SIGTERM)
        let status = await process.wait(timeout: timeout)
        self.process = nil
        return status
    }

    /// Kills healthd with SIGKILL (no shutdown of any kind) and waits for it.
    func kill() {
        guard let process, process.isRunning else { return }
        process.signal(SIGKILL)
        process.waitBlocking()
        self.process = nil
    }

    /// Kills healthd (SIGKILL) in the middle of the pending-journal merge of an unlock in
    /// progress: once its log says the merge starts and the store's WAL has been written since
    /// (the merge's first batch: nothing else writes while an unlock holds the store). Kills it
    /// anyway after 60 s. Where it lands — before the first batch commits or after a few —
    /// depends on the machine; callers assert what holds for both.
    ///
    /// The WAL's size is no signal: one kept from before the lock is rewritten from its start
    /// without growing. `markersBefore`: `mergeMarkers` read before the unlock was started — a
    /// fast unlock may log its line before this runs, and this would wait for another.
    func killOnceMerging(markersBefore: Int) async throws {
        let deadline = Date().addingTimeInterval(300)
        let wal = storeDirectory + "/health.sqlite-wal"
        let walStamp = { () -> [String] in
            let attributes = try? FileManager.default.attributesOfItem(atPath: wal)
            return ["\(attributes?[.modificationDate] ?? "none")", "\(attributes?[.size] ?? 0)"]
        }
        var stamp = walStamp()
        while mergeMarkers == markersBefore, Date() < deadline {
            stamp = walStamp()
            try await Task.sleep(for: .milliseconds(5))
        }
        while walStamp() == stamp, Date() < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        kill()
    }

    static let mergeMarker = "store reopened; merging the pending journal"

    /// How many merges healthd's log has announced so far.
    var mergeMarkers: Int { log.components(separatedBy: Self.mergeMarker).count - 1 }

    /// The count healthd logged for the pending-journal merge at its last start, if any.
    var startupMerged: Int? {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("merged saves kept while the store was locked") }),
              let range = line.range(of: #"merged=\d+"#, options: .regularExpression) else { return nil }
        return Int(line[range].dropFirst("merged=".count))
    }

    /// healthd's stderr over every start so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Runs healthctl. No thread of the cooperative pool blocks while it runs (ProcessRun waits
    /// and reads on GCD threads): tests that save concurrently need the pool meanwhile.
    func healthctl(_ arguments: [String], stdin: String? = nil) async throws -> ProcessResult {
        try await ProcessRun.run(Products.path("healthctl"), arguments + ["--socket", adminSocket], stdin: stdin)
    }

    /// A file (mode 600) holding `passcode` on its first line.
    func passcodeFile(_ passcode: String) throws -> String {
        let path = root + "/passcode-" + UUID().uuidString.prefix(8)
        FileManager.default.createFile(atPath: path, contents: Data((passcode + "\n").utf8), attributes: [.posixPermissions: 0o600])
        return path
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: root)
    }
}
