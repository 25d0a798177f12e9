import Foundation
import HealthStore
import HealthWire
import Synchronization

/// One long-lived thread of the wake-up check pool (`CheckPool`): runs one check's store work at
/// a time, handed to it by whoever holds its turn. Before, each check started a thread of its own
/// (`BlockingWork`); a save that woke 24 queries of each of N apps started 24 × N threads.
///
/// The thread is started when the worker is first used and ends after `idleExit` with nothing to
/// do, so an idle healthd (or a test's short-lived store handle) keeps no thread for it; it is
/// started again on next use (`threadsStarted` counts starts, for the benchmark).
final class CheckWorker: Sendable {
    private struct State {
        var job: (@Sendable () -> Void)?
        var threadAlive = false
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let starts: Atomic<Int>
    private let idleExit: Duration

    init(idleExit: Duration = .seconds(30)) {
        self.idleExit = idleExit
        starts = Atomic(0)
    }

    /// Threads started for this worker so far.
    var threadsStarted: Int { starts.load(ordering: .relaxed) }

    /// Runs `work` on this worker's thread and returns its result. The caller holds this worker's
    /// turn (`CheckPool`), so no other job is queued on it. The caller's `UnpackMemory.account`
    /// and `StatementBudget` go along, as with `BlockingWork`.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let account = UnpackMemory.account
        let budget = StatementBudget.current
        return try await withCheckedThrowingContinuation { continuation in
            submit {
                continuation.resume(with: Result {
                    try UnpackMemory.$account.withValue(account) { try StatementBudget.$current.withValue(budget) { try work() } }
                })
            }
        }
    }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        let startThread: Bool = state.withLock { state in
            assert(state.job == nil, "a check worker was handed a second job while it held one")  // CheckPool's turns
            state.job = job
            defer { state.threadAlive = true }
            return !state.threadAlive
        }
        if startThread {
            starts.add(1, ordering: .relaxed)
            let thread = Thread { [self] in loop() }
            thread.name = "healthd-check"
            thread.start()
        }
        wake.signal()
    }

    private func loop() {
        let idle = Double(idleExit.components.seconds) + Double(idleExit.components.attoseconds) / 1e18
        while true {
            let timedOut = wake.wait(timeout: .now() + idle) == .timedOut
            let job: (@Sendable () -> Void)? = state.withLock { state in
                if let job = state.job {
                    state.job = nil
                    return job
                }
                // Ends only with no job pending, under the lock `submit` looks at `threadAlive` in:
                // a job handed over after this starts a new thread.
                if timedOut { state.threadAlive = false }
                return nil
            }
            if let job {
                job()
            } else if timedOut {
                return
            }
        }
    }
}
