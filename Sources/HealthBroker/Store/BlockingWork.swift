import Foundation
import HealthStore
import HealthWire

/// Runs blocking store work (closing, re-encrypting, scrypt, opening: seconds, not
/// milliseconds) on a thread of its own, so Swift's cooperative pool, two threads on a
/// two-core machine, stays free for the calls that wait meanwhile.
enum BlockingWork {
    /// The caller's `UnpackMemory.account` and `StatementBudget` go along: a query that decodes
    /// and reads on the thread is charged to its call as it would be on the pool.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let account = UnpackMemory.account
        let budget = StatementBudget.current
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result {
                    try UnpackMemory.$account.withValue(account) { try StatementBudget.$current.withValue(budget) { try work() } }
                })
            }
            thread.name = "healthd-store-work"
            thread.start()
        }
    }
}
