import Synchronization

/// A completion handler given to app code that may call it any number of times (HealthKit
/// tolerates calling an observer's completion handler twice): only the first call counts.
final class OnceCompletion: Sendable {
    private let action: Mutex<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = Mutex(action)
    }

    func call() {
        let action = action.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }
}
