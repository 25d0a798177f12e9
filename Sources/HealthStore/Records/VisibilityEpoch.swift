public import GRDB
import Synchronization

/// A count that moves whenever something an app could see may have stopped being visible to it:
/// a grant of the app changed (`GrantRepository.apply`, an app's removal), a per-object grant of
/// the app was answered or revoked (`ObjectGrantRepository`), or an object left the store
/// (`ObjectDeleter`, whatever the path). Answers sent in many frames keep the mark they were
/// computed under and compare it before each frame (the broker's `StreamVisibility`): an
/// unchanged mark means every row already computed is still visible, for the price of one lock.
///
/// Moves before a change and again once it is committed (a deletion: when its transaction
/// commits), so a reader that looked between the two and found the old rows still committed
/// looks again at the next frame. Process-wide: healthd serves one store; a second store in the
/// same process (tests) only makes its streams look again needlessly.
public final class VisibilityEpoch: Sendable {
    /// What a stream compares: deletions anywhere, and the grants of its own app.
    public struct Mark: Equatable, Sendable {
        /// Moved by every object leaving the store, whoever deleted it.
        public let objectsLeft: UInt64
        /// Moved by changes to this app's grants (the user's alone).
        public let grants: UInt64
    }

    private struct State {
        var objectsLeft: UInt64 = 0
        var grants: [String: UInt64] = [:]
        /// Transactions that deleted objects and will move the count again when they commit.
        var deletingTransactions: Set<ObjectIdentifier> = []
    }

    public static let shared = VisibilityEpoch()

    private let state = Mutex(State())

    public func mark(appID: String) -> Mark {
        state.withLock { Mark(objectsLeft: $0.objectsLeft, grants: $0.grants[appID, default: 0]) }
    }

    /// `appID`'s grants (type, window, per-object) are about to change or just changed.
    func grantsChanged(appID: String) {
        state.withLock { $0.grants[appID, default: 0] &+= 1 }
    }

    /// An object leaves the store in `db`'s transaction: moves now, and again at its commit (or
    /// rollback). One commit hook per transaction, however many objects it deletes.
    func objectLeaving(_ db: Database) {
        let transaction = ObjectIdentifier(db)
        let first = state.withLock { state in
            state.objectsLeft &+= 1
            return state.deletingTransactions.insert(transaction).inserted
        }
        guard first else { return }
        let ended: @Sendable (Database) -> Void = { [self] _ in
            state.withLock { state in
                state.objectsLeft &+= 1
                state.deletingTransactions.remove(transaction)
            }
        }
        db.afterNextTransaction(onCommit: ended, onRollback: ended)
    }
}
