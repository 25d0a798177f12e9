import HealthModel
import HealthStore
import Synchronization

/// What one call touched, as its handler found out: the app concerned, the types and how many
/// objects. The method table says which action a method is logged as; the handler, which alone
/// knows the count (a query's count is known only once it has streamed), reports the facts here;
/// `CallDispatcher` appends the entry once the call ends. Handlers reach the report of the call
/// they serve through the task-local `current`, so handler signatures stay as they are.
///
/// A write that commits through the store's group-commit queue (save, delete) writes its entry
/// itself, in its own savepoint (`entryForWrite`, then `committedWithEntry`): one transaction
/// and one fsync for the work and its entry. The dispatcher then appends nothing more.
final class CallAccessReport: Sendable {
    struct Facts: Sendable {
        var appID: String?
        var types: [String]
        var count: Int
        var detail: String
    }

    @TaskLocal static var current: CallAccessReport?

    private let facts = Mutex<Facts?>(nil)
    private let entryCommitted = Mutex(false)
    /// Who the entry names as actor, and the action the method table logs the method as (nil:
    /// the method is not logged). Set by `CallDispatcher`, the one place that decides both.
    let actor: String
    let action: AccessAction?

    init(actor: String = AccessLogEntry.managerActor, action: AccessAction? = nil) {
        self.actor = actor
        self.action = action
    }

    /// The entry a write is to commit in its own savepoint, the count left for the store to fill
    /// in; nil when the method is not logged (the write then commits no entry).
    func entryForWrite(appID: String?, types: [String]) -> AccessLogEntryDraft? {
        action.map { AccessLogEntryDraft(actor: actor, appID: appID, action: $0, types: types) }
    }

    /// The write committed with the entry from `entryForWrite`: records the facts (for a later
    /// refusal or failure, which cannot happen after a commit, they stay available) and marks the
    /// entry written, so `CallDispatcher` does not append a second one.
    func committedWithEntry(appID: String?, types: [String], count: Int) {
        record(appID: appID, types: types, count: count)
        entryCommitted.withLock { $0 = action != nil }
    }

    var entryAlreadyCommitted: Bool { entryCommitted.withLock { $0 } }

    /// Records what the call is about. A second call replaces the subject and adds `count`.
    static func record(appID: String?, types: [String], count: Int = 0, detail: String = "") {
        current?.record(appID: appID, types: types, count: count, detail: detail)
    }

    func record(appID: String?, types: [String], count: Int = 0, detail: String = "") {
        facts.withLock { facts in
            let earlier = facts?.count ?? 0
            facts = Facts(appID: appID, types: types, count: earlier + count, detail: detail)
        }
    }

    /// Adds objects to a call already recorded (each batch of a streamed query). An instance
    /// method: store callbacks may run on a database thread, where the task-local is not set,
    /// so handlers take `current` before entering the store and call this on it.
    func add(count: Int) {
        facts.withLock { $0?.count += count }
    }

    var recorded: Facts? { facts.withLock { $0 } }
}
