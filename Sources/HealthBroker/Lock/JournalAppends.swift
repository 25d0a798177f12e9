import Dispatch
import HealthStore

/// Appends to the pending journal while the store is locked, one at a time on one thread for
/// the whole broker, in the order they were asked for.
///
/// Why: an append seals its entry and waits for fdatasync, and every append takes the journal's
/// one lock. Each used to run on a thread started for it (`BlockingWork`), so an app keeping its
/// 64 calls in flight with saves made healthd start a thread per call, all parked on that lock
/// in no particular order — a bystander's save could wait behind any number of them. Queued
/// here, a waiting write holds no thread (its call is suspended), and appends are served in
/// arrival order.
enum JournalAppends {
    private static let queue = DispatchQueue(label: "healthd-pending-journal")

    static func append(_ entry: [UInt8], to journal: PendingJournal) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async { continuation.resume(with: Result { _ = try journal.append(entry) }) }
        }
    }
}
