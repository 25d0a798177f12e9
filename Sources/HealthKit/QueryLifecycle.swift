import Synchronization

/// One query's run state: a query runs at most once, and `stop` cancels the task doing it.
final class QueryLifecycle: Sendable {
    private enum Phase {
        case ready
        case running(Task<Void, Never>)
        case stopped
    }

    private let phase = Mutex(Phase.ready)

    /// Starts `work` in a task unless the query already ran; returns whether it started.
    /// The phase stays `running` after the work ends: cancelling a finished task is harmless.
    func start(_ work: @escaping @Sendable () async -> Void) -> Bool {
        phase.withLock { phase in
            guard case .ready = phase else { return false }
            phase = .running(Task { await work() })
            return true
        }
    }

    /// Cancels the running task, if any. Stopping a query that has not started, or that has
    /// already delivered its results, does nothing, as in HealthKit. A stopped query cannot
    /// be executed again.
    func stop() {
        let task = phase.withLock { phase -> Task<Void, Never>? in
            guard case let .running(task) = phase else { return nil }
            phase = .stopped
            return task
        }
        task?.cancel()
    }
}
