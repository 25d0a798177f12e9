import GRDB
import Synchronization

extension GroupCommitQueue {
    /// `submit` for work whose result is not a list of UUIDs (a count, a stored record): the
    /// same savepoint, batching and durability, with the result handed back once committed.
    func submit<Value: Sendable>(returning work: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        let result = Mutex<Value?>(nil)
        _ = try await submit { db in
            let value = try work(db)
            result.withLock { $0 = value }
            return []
        }
        // submit returned, so the work ran to completion and its transaction committed.
        return result.withLock { $0! }
    }
}
