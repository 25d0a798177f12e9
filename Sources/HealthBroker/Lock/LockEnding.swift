import Synchronization

/// Marks a long-running call that the store's lock ended (CallDispatcher cancels it), so its
/// cancellation is reported to the app as errorDatabaseInaccessible rather than as CANCELLED.
final class LockEnding: Sendable {
    @TaskLocal static var current: LockEnding?

    private let ended = Mutex(false)

    func mark() { ended.withLock { $0 = true } }

    var isMarked: Bool { ended.withLock { $0 } }
}
