public import Foundation

extension BrokerProcess {
    /// `healthctl object-requests` once it lists a pending request (an app's per-object read
    /// request reaching healthd), or the last listing after `timeout` seconds: a hang guard, not a
    /// timing assertion. The caller checks the listing.
    public func pendingObjectRequests(timeout: TimeInterval = 30) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var listing = try await healthctl(["object-requests"]).stdout
        while !listing.contains("Request "), Date() < deadline {
            try await Task.sleep(for: .milliseconds(200))
            listing = try await healthctl(["object-requests"]).stdout
        }
        return listing
    }
}
