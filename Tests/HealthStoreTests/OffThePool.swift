import Foundation

/// Runs blocking work (waiting for a child process, sleeping until a kill) on a thread of its
/// own while the calling task is suspended. A test that blocks a thread of Swift's cooperative
/// pool for minutes (one of two on a 2-core machine) starves every suite running beside it under
/// `--parallel`: on one loaded core, trivial tests reported 231 s, past tighter time limits.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
