public import HealthModel
public import HealthWire

/// The access-log methods.
extension ManagerClient {
    /// The newest `limit` entries (0: as many as healthd sends in one reply), oldest first.
    public func accessLog(appID: String?, limit: Int) async throws(HealthCtlError) -> [AccessLogEntry] {
        let page: AccessLogPage = try await unary(.listAccessLog, AccessLogQuery(appID: appID, limit: limit),
                                                  action: "list the access log")
        return page.entries
    }

    public func verifyAccessLog() async throws(HealthCtlError) -> AccessLogVerification {
        let reply: AccessLogVerificationMessage = try await unary(.verifyAccessLog, EmptyMessage(),
                                                                  action: "verify the access log")
        return reply.verification
    }
}
