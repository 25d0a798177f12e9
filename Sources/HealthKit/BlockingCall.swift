import Dispatch
import Synchronization

/// Runs an async call to completion from synchronous code, for the few HealthKit APIs that are
/// synchronous but need the broker (`authorizationStatus(for:)`).
///
/// Waiting on a semaphore for a task on the global (cooperative) pool can deadlock: if every
/// pool thread is itself blocked in such a wait — easy on a 2-core machine — the task never
/// runs. So the task is pinned, with a task-executor preference, to a private dispatch queue;
/// serial queues run on libdispatch's overcommit threads, which are created on demand and never
/// belong to the cooperative pool. The caller may then block any thread, including the main
/// thread or a pool thread, without starving the call it waits for.
enum BlockingCall {
    static func run<Value: Sendable>(_ operation: @escaping @Sendable () async throws(HKError) -> Value) throws(HKError) -> Value {
        let outcome = Mutex<Result<Value, HKError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached(executorPreference: OffPoolExecutor.shared) {
            let result: Result<Value, HKError>
            do throws(HKError) {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}

/// A task executor backed by one serial dispatch queue (see `BlockingCall` for why).
final class OffPoolExecutor: TaskExecutor {
    static let shared = OffPoolExecutor()

    private let queue = DispatchQueue(label: "openhealth.sdk.blocking-call")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
