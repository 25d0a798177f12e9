import Foundation

/// Runs blocking store work (closing, re-encrypting, scrypt, opening: seconds, not
/// milliseconds) on a thread of its own, so Swift's cooperative pool, two threads on a
/// two-core machine, stays free for the calls that wait meanwhile.
enum BlockingWork {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.name = "healthd-store-work"
            thread.start()
        }
    }
}
