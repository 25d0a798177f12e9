import Dispatch
import Foundation
import GRDB
import Synchronization

/// Group commit: concurrent saves share one write transaction, so one fsync (synchronous=FULL
/// commits are the cost of a small save) acknowledges many of them.
///
/// The shape is the classic leader/follower queue, with no timer and no batch window. A save
/// appends itself to `waiting` and suspends. If no drain is running, it starts one on
/// `drainQueue`: the drain takes everything waiting, commits it as one transaction, and only then
/// resumes each save with its result; saves that arrived during that commit (its fsync) form the
/// next batch. Batching therefore grows exactly as much as saves overlap a commit, and a lone save
/// is committed as soon as the drain thread runs.
///
/// Each save stays atomic and isolated: in a shared transaction each runs in its own SAVEPOINT, so
/// a save that throws (a constraint, a bad value) is rolled back to its savepoint and fails alone,
/// the others in the batch commit. A batch of one needs no savepoint — its transaction is its own,
/// and rolling that back is rolling back the save — which spares a lone save two statements.
/// Only a failure of a shared transaction itself (SQLite aborted it, or the COMMIT failed) fails
/// the whole batch, and then nothing in it was acknowledged. The transaction and savepoint
/// statements are the writer connection's cached ones (`CachedTransaction`): GRDB's `write` and
/// `inSavepoint` parse them again for every commit and every save.
///
/// The drain runs on its own serial queue rather than on a caller's thread, so no caller (and no
/// thread of Swift's small cooperative pool) is held waiting for the writer. Committing a lone save
/// on its caller's pool thread instead was tried (issue 17, Benchmarks/README.md "Session 8"): it
/// saved two thread hand-offs per save, but a pool thread blocked on the writer connection
/// deadlocks as soon as whoever holds the writer needs the pool to let go (GroupCommitTests'
/// `WriterHold` did, with two pool threads on a two-core machine).
///
/// The one exception is `submitBlocking`, for a thread that is allowed to block (a connection's
/// own reader thread, never a pool thread): when no drain is running, that thread leads the
/// commit of its own save itself and answers it without any hand-off; otherwise it waits, blocked,
/// for the drain to commit it with the others (Benchmarks/README.md "Session 10: durable save").
final class GroupCommitQueue: Sendable {
    typealias Work = @Sendable (Database) throws -> [UUID]

    private struct Submission: Sendable {
        let work: Work
        /// Called once, after the transaction holding `work` committed (or failed): resumes an
        /// async submitter, or wakes a blocked one.
        let finish: @Sendable (Result<[UUID], any Error>) -> Void
    }

    private struct State {
        var waiting: [Submission] = []
        var draining = false
        var statistics = GroupCommitStatistics()
    }

    /// Bounds one transaction: how long the first save of a batch waits behind the others' work,
    /// and how much one WAL commit holds.
    static let maximumBatch = 256

    private let writer: any DatabaseWriter
    private let state = Mutex(State())
    private let drainQueue = DispatchQueue(label: "openhealthkit.store.group-commit")

    init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    var statistics: GroupCommitStatistics {
        state.withLock { $0.statistics }
    }

    /// Runs `work` inside a write transaction, shared with the saves that overlap it, and returns
    /// its result once that transaction is durably committed.
    func submit(_ work: @escaping Work) async throws -> [UUID] {
        try await withCheckedThrowingContinuation { continuation in
            let submission = Submission(work: work) { continuation.resume(with: $0) }
            if leads(submission) {
                drainQueue.async { self.drain(startingWith: [submission]) }
            }
        }
    }

    /// `submit` for a thread that may block until the commit — a connection's reader thread;
    /// never a thread of the cooperative pool (see the type's comment for the deadlock that
    /// causes). When no drain is running, this thread commits its save itself, alone, and only
    /// hands the saves that arrived meanwhile to the drain thread; otherwise the drain commits it
    /// with the others and wakes this thread. Same transaction, savepoint and durability rules
    /// as `submit`: it returns once the transaction holding `work` is durably committed.
    func submitBlocking(_ work: @escaping Work) throws -> [UUID] {
        let outcome = BlockingCommitOutcome()
        let submission = Submission(work: work) { outcome.finish($0) }
        if leads(submission) {
            commit([submission])
            // Later saves are the drain thread's: this thread goes back to answering its own.
            if let next = nextBatch() {
                drainQueue.async { self.drain(startingWith: next) }
            }
        }
        return try outcome.wait()
    }

    /// Counts `submission` and queues it behind a running drain; true when none was running,
    /// and the caller must now commit it (it leads, `draining` is set for it).
    private func leads(_ submission: Submission) -> Bool {
        state.withLock { state in
            state.statistics.submitted += 1
            guard !state.draining else {
                state.waiting.append(submission)
                return false
            }
            // No commit is running and none can start until `draining` is cleared: this save is
            // the next batch, alone.
            state.draining = true
            return true
        }
    }

    private func drain(startingWith first: [Submission]) {
        var batch: [Submission]? = first
        while let current = batch {
            commit(current)
            batch = nextBatch()
        }
    }

    /// The saves waiting now (at most `maximumBatch`), or nil, ending the drain, when none are.
    private func nextBatch() -> [Submission]? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.draining = false
                return nil
            }
            let batch = Array(state.waiting.prefix(Self.maximumBatch))
            state.waiting.removeFirst(batch.count)
            return batch
        }
    }

    private func commit(_ batch: [Submission]) {
        let outcomes: [Result<[UUID], any Error>]
        do {
            // Begun, committed and split into savepoints by statements prepared once
            // (`CachedTransaction`), not by GRDB's `write`, which prepares them on every commit.
            outcomes = try writer.writeWithoutTransaction { db in
                try CachedTransaction.run(db) {
                    if batch.count == 1 {
                        // Its own transaction: a failure rolls it back (by throwing out of `run`).
                        return [.success(try batch[0].work(db))]
                    }
                    return try Self.runInSavepoints(batch, db)
                }
            }
        } catch {
            state.withLock { state in
                if batch.count > 1 { state.statistics.failedCommits += 1 }
            }
            for submission in batch {
                submission.finish(.failure(error))
            }
            return
        }
        let committed = outcomes.count { if case .success = $0 { true } else { false } }
        state.withLock { state in
            state.statistics.commits += 1
            state.statistics.committedSaves += committed
        }
        for (submission, outcome) in zip(batch, outcomes) {
            submission.finish(outcome)
        }
    }

    /// Each save of a shared transaction in its own savepoint, so that one save's failure rolls
    /// back only that save.
    private static func runInSavepoints(_ batch: [Submission], _ db: Database) throws -> [Result<[UUID], any Error>] {
        var outcomes: [Result<[UUID], any Error>] = []
        outcomes.reserveCapacity(batch.count)
        for submission in batch {
            var uuids: [UUID] = []
            do {
                try CachedTransaction.inSavepoint(db) {
                    uuids = try submission.work(db)
                }
                outcomes.append(.success(uuids))
            } catch {
                // Some errors (disk full, I/O) make SQLite roll back the whole
                // transaction: the saves before this one are gone too, so the batch
                // fails as one. Otherwise only this save was rolled back.
                guard db.isInsideTransaction else { throw error }
                outcomes.append(.failure(error))
            }
        }
        return outcomes
    }
}

/// The result of a `submitBlocking` save, handed from the committing thread to the blocked one.
private final class BlockingCommitOutcome: Sendable {
    /// Replaced by the queue, which finishes every submission exactly once, before `done` is
    /// signalled; the initial value is never seen by `wait`.
    private let result = Mutex<Result<[UUID], any Error>>(.failure(CancellationError()))
    private let done = DispatchSemaphore(value: 0)

    func finish(_ outcome: Result<[UUID], any Error>) {
        result.withLock { $0 = outcome }
        done.signal()
    }

    func wait() throws -> [UUID] {
        done.wait()
        return try result.withLock { $0 }.get()
    }
}

/// Counts since the store was opened; `commits < committedSaves` shows saves were batched. A
/// "save" here is any submission: saves, deletions and access-log entries of other calls
/// (`AccessLogRepository.appendGrouped`) share the one queue.
public struct GroupCommitStatistics: Sendable, Equatable {
    /// Saves handed to the queue (including those still waiting).
    public var submitted = 0
    /// Saves acknowledged as durable.
    public var committedSaves = 0
    /// Write transactions committed (each one fsync of the WAL).
    public var commits = 0
    /// Shared transactions that failed as a whole (every save in them failed); a lone save that
    /// fails is its own transaction rolled back, counted as neither.
    public var failedCommits = 0

    public init() {}
}
