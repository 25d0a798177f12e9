import Foundation
import Glibc
import TestSupport

extension BrokerProcess {
    /// Installs the scripted test app as `appID` with both usage descriptions and `entitlements`.
    func installClient(_ appID: String, entitlements: [String]) async throws {
        let manifest: [String: Any] = [
            "id": appID, "displayName": "Test \(appID)", "executable": Self.clientExecutable, "version": "1.0",
            "NSHealthShareUsageDescription": "reads for a test", "NSHealthUpdateUsageDescription": "writes for a test",
            "entitlements": entitlements,
        ]
        let path = root + "/\(appID).json"
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
        let result = try await healthctl(["apps", "install", path])
        guard result.status == 0 else { throw CommandFailed(result: result) }
    }

    /// Waits (polling, at most `timeout` seconds) until healthd's log contains `text`.
    func waitForLog(_ text: String, timeout: TimeInterval = 120) async throws -> Bool {
        try await poll(timeout: timeout) { log.contains(text) }
    }
}

/// Polls `condition` every 20 ms until it holds (true) or `timeout` seconds pass (false).
func poll(timeout: TimeInterval, _ condition: () -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}

/// A real `health-sandbox agent` for a test's healthd, stopped (SIGTERM) when dropped. Apps it
/// launches write their output to `appLog(_:)`; they observe `backgroundTypes` (the scripted
/// app's background launch reads them from its environment, which the agent passes on).
final class LaunchAgentProcess: Sendable {
    let logDirectory: String
    private let agentLogPath: String
    private let child: ChildProcess

    /// `environment`: more variables for the agent and so for the apps it launches.
    convenience init(broker: BrokerProcess, backgroundTypes: [String], environment: [String: String] = [:]) throws {
        try self.init(root: broker.root, adminSocket: broker.adminSocket, backgroundTypes: backgroundTypes, environment: environment)
    }

    /// An agent for the healthd whose admin socket is `adminSocket`; its files go under `root`.
    init(root: String, adminSocket: String, backgroundTypes: [String], environment: [String: String] = [:]) throws {
        logDirectory = root + "/app-logs"
        agentLogPath = root + "/agent.log"
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: agentLogPath, contents: nil)
        let log = open(agentLogPath, O_WRONLY | O_APPEND | O_CLOEXEC)
        defer { close(log) }
        child = try ChildProcess(Products.path("health-sandbox"),
                                 ["agent", "--socket", adminSocket, "--log-dir", logDirectory],
                                 environment: environment.merging(["E2E_CLIENT_BACKGROUND_TYPES": backgroundTypes.joined(separator: ",")]) { $1 },
                                 stderr: log)
    }

    /// The agent's own messages so far.
    var log: String { (try? String(contentsOfFile: agentLogPath, encoding: .utf8)) ?? "" }

    /// What the launched app `appID` printed over all its launches (nil: never launched).
    func appLog(_ appID: String) -> String? {
        try? String(contentsOfFile: logDirectory + "/\(appID).log", encoding: .utf8)
    }

    func appLogLines(_ appID: String) -> [String] {
        appLog(appID)?.split(separator: "\n").map(String.init) ?? []
    }

    /// Waits until `appID`'s output has `count` lines equal to `line`.
    func waitForAppLine(_ appID: String, _ line: String, count: Int = 1, timeout: TimeInterval = 120) async throws -> Bool {
        try await poll(timeout: timeout) { appLogLines(appID).count { $0 == line } >= count }
    }

    /// Stops the agent now (SIGTERM, or SIGKILL: no chance to say goodbye) and waits for it.
    func stop(_ signal: Int32 = SIGTERM) {
        guard child.isRunning else { return }
        child.signal(signal)
        child.waitBlocking()
    }

    deinit { stop() }
}
