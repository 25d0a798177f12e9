import Dispatch
import HealthIPC
import Synchronization

/// One large query's place in the `QueryScheduler`, handed to its call's responder as the
/// `PeerWaitHooks`: while the query blocks for its client to read, it parks (its broker-wide
/// slot goes to the next app in turn) and takes a slot again before producing more; after each
/// message it hands, it takes turns with other apps' waiting queries (`QueryScheduler.takeTurn`).
final class QuerySlot: PeerWaitHooks {
    let app: String
    let id: UInt64
    private let scheduler: QueryScheduler
    /// The slot of the large query the running task serves (`CallDispatcher`), for work that
    /// takes turns between units other than stream messages (a deletion's chunks).
    @TaskLocal static var current: QuerySlot?

    init(scheduler: QueryScheduler, app: String, id: UInt64) {
        self.scheduler = scheduler
        self.app = app
        self.id = id
    }

    func park(interrupt: @escaping @Sendable () -> Void) {
        scheduler.park(self, interrupt: interrupt)
    }

    func unpark(goingOn: Bool) throws {
        let answer = BlockingAnswer()
        scheduler.unpark(self, goingOn: goingOn, resume: answer.finish)
        try answer.wait().get()
    }

    func unparkSuspending(goingOn: Bool) async throws {
        // Not cancellable midway: a parked query gives up its place only through eviction, and
        // a cancelled call's stream ends at its next send anyway.
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, any Error>, Never>) in
            scheduler.unpark(self, goingOn: goingOn) { continuation.resume(returning: $0) }
        }
        try outcome.get()
    }

    func takeTurn() throws {
        let answer = BlockingAnswer()
        guard scheduler.takeTurn(self, resume: answer.finish) else { return }
        try answer.wait().get()
    }

    func takeTurnSuspending() async throws {
        // Not cancellable midway, as `unparkSuspending`: the turn comes round (a cancelled call's
        // stream ends at its next send).
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, any Error>, Never>) in
            let queued = scheduler.takeTurn(self) { continuation.resume(returning: $0) }
            if !queued { continuation.resume(returning: .success(())) }
        }
        try outcome.get()
    }

    var turnDue: Bool { scheduler.turnDue(self) }
}

/// One answer handed from the scheduler to a thread blocked for it (a parked query taking its
/// slot back: it streams from a thread of its own, which may block).
final class BlockingAnswer: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let answer = Mutex<Result<Void, any Error>?>(nil)

    func finish(_ result: Result<Void, any Error>) {
        answer.withLock { $0 = result }
        semaphore.signal()
    }

    func wait() -> Result<Void, any Error> {
        semaphore.wait()
        return answer.withLock { $0 } ?? .success(())
    }
}
