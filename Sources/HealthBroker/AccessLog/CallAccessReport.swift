import Synchronization

/// What one call touched, as its handler found out: the app concerned, the types and how many
/// objects. The method table says which action a method is logged as; the handler, which alone
/// knows the count (a query's count is known only once it has streamed), reports the facts here;
/// `CallDispatcher` appends the entry once the call ends. Handlers reach the report of the call
/// they serve through the task-local `current`, so handler signatures stay as they are.
final class CallAccessReport: Sendable {
    struct Facts: Sendable {
        var appID: String?
        var types: [String]
        var count: Int
        var detail: String
    }

    @TaskLocal static var current: CallAccessReport?

    private let facts = Mutex<Facts?>(nil)

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
