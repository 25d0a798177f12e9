import Synchronization

/// Told when the store is about to close (a lock or a key change starts draining its calls), so
/// that calls inside it which wait only for their own clients end at once instead of holding
/// the drain (`QueryScheduler.endParked`).
final class StoreClosingSignal: Sendable {
    private let listeners = Mutex<[@Sendable () -> Void]>([])

    func onClosing(_ listener: @escaping @Sendable () -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    func announce() {
        for listener in listeners.withLock({ $0 }) { listener() }
    }
}
