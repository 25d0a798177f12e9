import Foundation
import TestSupport

/// The scripted test app against a healthd that the test restarts (BrokerProcess+Apps has the
/// same for a healthd that runs once).
extension RestartableHealthd {
    /// Installs an app whose executable is the scripted test app, with both usage descriptions
    /// and `entitlements`.
    func installClient(_ appID: String, entitlements: [String] = []) async throws {
        let manifest: [String: Any] = [
            "id": appID, "displayName": "Test \(appID)", "executable": BrokerProcess.clientExecutable, "version": "1.0",
            "NSHealthShareUsageDescription": "reads for a test", "NSHealthUpdateUsageDescription": "writes for a test",
            "entitlements": entitlements,
        ]
        let path = root + "/\(appID).json"
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
        let result = try await healthctl(["apps", "install", path])
        guard result.status == 0 else { throw CommandFailed(result: result) }
    }

    /// `health-sandbox run APP [--allow-write DIR] -- e2e-client ARGS…`, to completion.
    func runApp(_ appID: String, _ arguments: [String], writable: String? = nil, timeout: TimeInterval = 60) async throws -> ProcessResult {
        try await ProcessRun.run(Products.path("health-sandbox"),
                                 ["run", appID, "--socket", adminSocket] + (writable.map { ["--allow-write", $0] } ?? [])
                                     + ["--", BrokerProcess.clientExecutable] + arguments,
                                 timeout: timeout)
    }

    /// Sets a grant with `healthctl grant`/`revoke`.
    func set(_ appID: String, _ access: String, _ type: String, allowed: Bool) async throws {
        let result = try await healthctl([allowed ? "grant" : "revoke", appID, access, type])
        guard result.status == 0 else { throw CommandFailed(result: result) }
    }
}
