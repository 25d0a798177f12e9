import HealthStore
import Synchronization

/// Told when a lock or key change starts draining the store and when the drain is over, so that
/// calls inside it which wait only for their own clients end at once — those already waiting and
/// those that start to wait during the drain — instead of holding it (`QueryScheduler.storeClosing`).
final class StoreClosingSignal: Sendable {
    private let listeners = Mutex<[@Sendable (_ closing: Bool) -> Void]>([])
    /// Set for the span of the drain: every app call's statement on a reader stops at its next
    /// progress check (`StatementBudget`), so the drain waits for no app's statement.
    let draining = StoreDraining()

    func onChange(_ listener: @escaping @Sendable (_ closing: Bool) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// Runs `drain` (taking the store offline) inside the closing window, which ends however
    /// `drain` ends: by then no call is inside the store, or the store is back in service.
    func whileClosing<T>(_ drain: () async throws -> T) async throws -> T {
        notify(closing: true)
        defer { notify(closing: false) }
        return try await drain()
    }

    private func notify(closing: Bool) {
        draining.set(closing)
        for listener in listeners.withLock({ $0 }) { listener(closing) }
    }
}
