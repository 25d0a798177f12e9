import Dispatch
import HealthStore
import Synchronization

/// Appends to the pending journal while the store is locked, one at a time on one thread for
/// the whole broker, in the order they were asked for.
///
/// Why: an append seals its entry and waits for fdatasync, and every append takes the journal's
/// one lock. Each used to run on a thread started for it (`BlockingWork`), so an app keeping its
/// 64 calls in flight with saves made healthd start a thread per call, all parked on that lock
/// in no particular order — a bystander's save could wait behind any number of them. Queued
/// here, a waiting write holds no thread (its call is suspended), and appends are served in
/// arrival order.
///
/// Also where an app's journaling is counted (`JournalUse`): every entry an app's call makes is
/// counted against the app, and a write is refused here once the app's entries since the lock
/// would pass `StoreHandle.journalBytesPerApp`. The bound itself is kept before any call runs:
/// `CallDispatcher` refuses every call that may journal (`MethodTable.journalsWhileLocked`) from
/// an app whose count has reached the bound, so the unlock merges at most the bound per app plus
/// the entries of its calls already in flight.
enum JournalAppends {
    private static let queue = DispatchQueue(label: "healthd-pending-journal")

    /// Who an entry is counted against.
    enum Charge: Sendable {
        /// The user's (grants, settings): counted against nobody.
        case nobody
        /// An app's write: refused when it would take the app past `bound` bytes.
        case bounded(app: String, bound: Int)
        /// Counted against the app but never refused: its calls' access-log entries (a refused
        /// entry would leave a call unlogged). Bounded at admission instead: an app at its bound
        /// has no further call admitted that could journal (`CallDispatcher.storageBoundRefusal`;
        /// before session 21, 60,000 `RequestAuthorization` calls journaled 17 MB at an 8 MiB bound).
        case counted(app: String)
    }

    static func append(_ entry: [UInt8], to locked: StoreGate.LockedStore, charging charge: Charge) async throws {
        let journal = locked.journal
        let use = locked.journaled
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                // Checked and counted here, in the order appends are made: no two of an app's
                // appends can both pass the bound on the same room.
                let counted: String?
                switch charge {
                case .nobody:
                    counted = nil
                case let .counted(app):
                    use.add(entry.count, app: app)
                    counted = app
                case let .bounded(app, bound):
                    if let already = use.admit(entry.count, app: app, bound: bound) {
                        return continuation.resume(throwing: StorageBoundExceeded(bound: .journaled, used: Int64(already),
                                                                                  limit: Int64(bound)))
                    }
                    counted = app
                }
                let outcome = Result { _ = try journal.append(entry) }
                if case .failure = outcome, let counted { use.add(-entry.count, app: counted) }
                continuation.resume(with: outcome)
            }
        }
    }
}

/// What each app journaled since the store locked, in entry bytes: the journal bound's count,
/// kept with the locked store (a new lock starts from nothing). Not rebuilt by a locked start
/// after a restart: the entries are sealed for the store's key, which the locked broker does not
/// hold, so their apps cannot be read back (SECURITY.md, "Open, known").
final class JournalUse: Sendable {
    private let bytes = Mutex<[String: Int]>([:])

    /// Counts `count` bytes for `app` when that keeps it within `bound`, returning nil; otherwise
    /// counts nothing and returns what the app has journaled.
    func admit(_ count: Int, app: String, bound: Int) -> Int? {
        bytes.withLock { bytes in
            let already = bytes[app, default: 0]
            guard already + count <= bound else { return already }
            bytes[app] = already + count
            return nil
        }
    }

    /// What `app` has journaled since the lock.
    func used(by app: String) -> Int {
        bytes.withLock { $0[app, default: 0] }
    }

    func add(_ count: Int, app: String) {
        bytes.withLock { $0[app] = max(0, $0[app, default: 0] + count) }
    }

    /// Every app that journaled something, and how much.
    var entries: [String: Int] {
        bytes.withLock { $0 }
    }
}
