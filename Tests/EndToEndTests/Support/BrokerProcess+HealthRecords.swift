import Foundation
import TestSupport

extension BrokerProcess {
    /// Installs the scripted test app with Apple's health-records entitlement in its manifest
    /// (`"com.apple.developer.healthkit.access": ["health-records"]`) and a read usage text.
    @discardableResult
    func installHealthRecordsClient(_ appID: String) async throws -> String {
        let manifest: [String: Any] = [
            "id": appID, "displayName": "Test \(appID)", "executable": Self.clientExecutable, "version": "1.0",
            "NSHealthShareUsageDescription": "reads clinical records for a test",
            "com.apple.developer.healthkit.access": ["health-records"],
        ]
        let path = root + "/\(appID).json"
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
        let result = try await healthctl(["apps", "install", path])
        guard result.status == 0 else { throw CommandFailed(result: result) }
        return appID
    }
}
