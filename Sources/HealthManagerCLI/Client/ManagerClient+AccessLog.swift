public import HealthModel
public import HealthWire

/// The access-log methods.
extension ManagerClient {
    /// The newest `limit` entries (0: as many as healthd lists at most), oldest first. healthd
    /// streams them in frames cut by bytes, newest page first.
    public func accessLog(appID: String?, limit: Int) async throws(HealthCtlError) -> [AccessLogEntry] {
        var entries: [AccessLogEntry] = []
        for try await page in stream(.listAccessLog, AccessLogQuery(appID: appID, limit: limit), action: "list the access log",
                                     as: AccessLogPage.self) {
            entries += page.entries
        }
        return entries.sorted { $0.sequence < $1.sequence }
    }

    public func verifyAccessLog() async throws(HealthCtlError) -> AccessLogVerification {
        let reply: AccessLogVerificationMessage = try await unary(.verifyAccessLog, EmptyMessage(),
                                                                  action: "verify the access log")
        return reply.verification
    }
}
