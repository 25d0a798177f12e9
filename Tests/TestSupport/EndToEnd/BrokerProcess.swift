import Foundation
import Glibc

/// A real healthd on a fresh store in a temporary directory, stopped (SIGTERM) and removed
/// when the test is done.
public final class BrokerProcess: @unchecked Sendable {
    public let root: String
    public let storeDirectory: String
    public let socketDirectory: String
    private let process: ChildProcess
    private let logPath: String

    public var appSocket: String { socketDirectory + "/app.sock" }
    public var adminSocket: String { socketDirectory + "/admin.sock" }

    /// `extraArguments`: more healthd options, such as background delivery's hidden timings.
    public init(extraArguments: [String] = []) throws {
        root = NSTemporaryDirectory() + "ohk-e2e-" + UUID().uuidString.prefix(8)
        storeDirectory = root + "/store"
        socketDirectory = root + "/run"
        logPath = root + "/healthd.log"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        // Its log goes to a file, not a pipe: nobody reads while healthd runs, and a full pipe
        // would block it.
        let log = open(logPath, O_WRONLY | O_APPEND | O_CLOEXEC)
        defer { close(log) }
        process = try ChildProcess(Products.path("healthd"),
                                   ["--store", storeDirectory, "--socket-dir", socketDirectory, "--log-level", "info"] + extraArguments,
                                   stderr: log)
        try waitForSockets()
    }

    private func waitForSockets() throws {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            // healthd.pid is written after both sockets listen: a socket file alone can exist
            // between bind and listen, when connecting to it is refused.
            if FileManager.default.fileExists(atPath: adminSocket), FileManager.default.fileExists(atPath: appSocket),
               FileManager.default.fileExists(atPath: socketDirectory + "/healthd.pid") { return }
            guard process.isRunning else { throw BrokerFailed(log: log) }
            usleep(20_000)
        }
        throw BrokerFailed(log: "healthd did not create its sockets within 30 s")
    }

    public var isRunning: Bool { process.isRunning }

    public var pid: Int32 { process.pid }

    /// healthd's stderr so far.
    public var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// Runs healthctl against this broker.
    /// Its state (`healthctl export` records the last export there) stays in this broker's
    /// folder, never in the home of whoever runs the tests.
    public func healthctl(_ arguments: [String], stdin: String? = nil) async throws -> ProcessResult {
        try await ProcessRun.run(Products.path("healthctl"), arguments + ["--socket", adminSocket],
                                 environment: ["XDG_STATE_HOME": root + "/state"], stdin: stdin)
    }

    /// Installs a manifest for `executable` and returns its app id.
    /// `entitlements`: manifest keys such as `com.apple.developer.healthkit.access` (health records).
    @discardableResult
    public func install(appID: String, executable: String, read: Bool = true, share: Bool = true,
                        entitlements: [String: [String]] = [:]) async throws -> String {
        var manifest: [String: Any] = ["id": appID, "displayName": "Test \(appID)", "executable": executable, "version": "1.0"]
        for (key, value) in entitlements { manifest[key] = value }
        if read { manifest["NSHealthShareUsageDescription"] = "reads for a test" }
        if share { manifest["NSHealthUpdateUsageDescription"] = "writes for a test" }
        let path = root + "/\(appID).json"
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
        let result = try await healthctl(["apps", "install", path])
        guard result.status == 0 else { throw CommandFailed(result: result) }
        return appID
    }

    public func stop() {
        if process.isRunning {
            process.signal(SIGTERM)
            process.waitBlocking()
        }
        try? FileManager.default.removeItem(atPath: root)
    }

    deinit { stop() }
}

public struct BrokerFailed: Error, CustomStringConvertible {
    public let log: String
    public init(log: String) { self.log = log }
    public var description: String { "healthd failed to start: \(log)" }
}

public struct CommandFailed: Error, CustomStringConvertible {
    public let result: ProcessResult
    public init(result: ProcessResult) { self.result = result }
    public var description: String { "command failed: \(result)" }
}
