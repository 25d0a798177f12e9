import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// The manager's view of the access log: list it, verify its chain.
enum AccessLogService {
    /// Entries one listing carries at most; a larger `limit` (or none) gets this many, the newest.
    static let maxEntriesPerReply = 5_000
    /// Entries read from the store at a time: what healthd holds of a listing at once.
    static let entriesPerRead = 256

    /// The newest `limit` entries, read a page at a time from the newest and sent in frames cut
    /// by bytes (`FrameBatcher`): newest page first, each frame oldest first within it (the
    /// manager orders them by sequence). An entry is usually ~200 bytes, but the apps decide how
    /// many types an entry names (a request or a query over every type: ~15 KB), so 5,000 of
    /// them could pass a frame many times over.
    static func list(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let query = try AccessLogQuery(wire: payload)
        let limit = query.limit <= 0 ? maxEntriesPerReply : min(query.limit, maxEntriesPerReply)
        try await context.store.withDatabaseOffPool { database in
            var before: Int64?
            var left = limit
            while left > 0 {
                let page = try database.accessLog.entries(before: before, appID: query.appID, limit: min(left, entriesPerRead))
                for frame in FrameBatcher.batches(page, size: { AccessLogPage([$0]).wireBytes().count }) {
                    try responder.sendFromSynchronousContext(AccessLogPage(frame).wireBytes())
                }
                guard let oldest = page.first, page.count == min(left, entriesPerRead) else { return }
                before = oldest.sequence
                left -= page.count
            }
        }
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
