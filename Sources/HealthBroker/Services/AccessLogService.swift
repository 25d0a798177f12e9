import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// The manager's view of the access log: list it, verify its chain.
enum AccessLogService {
    /// Entries one reply carries at most. About 200 bytes each on the wire, so far below the
    /// frame limit; a larger `limit` (or none) gets this many, the newest.
    static let maxEntriesPerReply = 5_000

    static func list(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let query = try AccessLogQuery(wire: payload)
        let limit = query.limit <= 0 ? maxEntriesPerReply : min(query.limit, maxEntriesPerReply)
        let entries = try await context.store.withDatabase { try $0.accessLog.entries(appID: query.appID, limit: limit) }
        return MethodTable.Reply(AccessLogPage(entries))
    }

    static func verify(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        _ = try EmptyMessage(wire: payload)
        let verification = try await context.store.withDatabase { try $0.accessLog.verify() }
        if case let .damaged(damage) = verification {
            context.logger.warning("access log damaged", metadata: ["damage": "\(damage)"])
        }
        return MethodTable.Reply(AccessLogVerificationMessage(verification))
    }
}
