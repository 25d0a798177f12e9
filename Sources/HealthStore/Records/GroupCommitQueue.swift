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
/// the whole batch, and then nothing in it was acknowledged.
///
/// The drain runs on its own serial queue rather than on a caller's thread, so no caller (and no
/// thread of Swift's small cooperative pool) is held waiting for the writer. Committing a lone save
/// on its caller's pool thread instead was tried (issue 17, Benchmarks/README.md "Session 8"): it
/// saved two thread hand-offs per save, but a pool thread blocked on the writer connection
/// deadlocks as soon as whoever holds the writer needs the pool to let go (GroupCommitTests'
/// `WriterHold` did, with two pool threads on a two-core machine).
final class GroupCommitQueue: Sendable {
    typealias Work = @Sendable (Database) throws -> [UUID]

    private struct Submission: Sendable {
        let work: Work
        let continuation: CheckedContinuation<[UUID], any Error>
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
            let submission = Submission(work: work, continuation: continuation)
            let startsDrain = state.withLock { state in
                state.statistics.submitted += 1
                guard !state.draining else {
                    state.waiting.append(submission)
                    return false
                }
                // No commit is running and none can start until `draining` is cleared: this
                // save is the next batch, alone.
                state.draining = true
                return true
            }
            if startsDrain {
                drainQueue.async { self.drain(startingWith: [submission]) }
            }
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
            outcomes = try writer.write { db in
                if batch.count == 1 {
                    // Its own transaction: a failure rolls it back (by throwing out of `write`).
                    return [.success(try batch[0].work(db))]
                }
                return try Self.runInSavepoints(batch, db)
            }
        } catch {
            state.withLock { state in
                if batch.count > 1 { state.statistics.failedCommits += 1 }
            }
            for submission in batch {
                submission.continuation.resume(throwing: error)
            }
            return
        }
        let committed = outcomes.count { if case .success = $0 { true } else { false } }
        state.withLock { state in
            state.statistics.commits += 1
            state.statistics.committedSaves += committed
        }
        for (submission, outcome) in zip(batch, outcomes) {
            submission.continuation.resume(with: outcome)
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
                try db.inSavepoint {
                    uuids = try submission.work(db)
                    return .commit
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
