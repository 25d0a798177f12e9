import Dispatch
import Foundation
import GRDB
import Synchronization

/// Group commit: concurrent saves share one write transaction, so one fsync (synchronous=FULL
/// commits are the cost of a small save) acknowledges many of them.
///
/// The shape is the classic leader/follower queue. A save appends itself to `waiting` and
/// suspends. If no drain is running, it starts one on `drainQueue`: the drain takes everything
/// waiting, runs each save in its own SAVEPOINT inside one transaction, commits, and only then
/// resumes each save with its result; saves that arrived during that commit form the next batch.
/// Batching therefore needs no timer: it grows exactly as much as saves overlap a commit.
///
/// Each save stays atomic and isolated: a save that throws (a constraint, a bad value) is rolled
/// back to its savepoint and fails alone, the others in the batch commit. Only a failure of the
/// transaction itself (SQLite aborted it, or the COMMIT failed) fails the whole batch, and then
/// nothing in it was acknowledged.
///
/// The drain runs on its own serial queue rather than on a caller's thread, so no caller (and no
/// thread of Swift's small cooperative pool) is held waiting for other apps' commits.
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

    /// Runs `work` inside its own savepoint of a shared write transaction and returns its result
    /// once that transaction is durably committed.
    func submit(_ work: @escaping Work) async throws -> [UUID] {
        try await withCheckedThrowingContinuation { continuation in
            let startsDrain = state.withLock { state in
                state.waiting.append(Submission(work: work, continuation: continuation))
                state.statistics.submitted += 1
                defer { state.draining = true }
                return !state.draining
            }
            if startsDrain {
                drainQueue.async { self.drain() }
            }
        }
    }

    private func drain() {
        while let batch = nextBatch() {
            commit(batch)
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
        var outcomes: [Result<[UUID], any Error>] = []
        outcomes.reserveCapacity(batch.count)
        do {
            try writer.write { db in
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
            }
        } catch {
            state.withLock { $0.statistics.failedCommits += 1 }
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
    /// Transactions that failed as a whole (every save in them failed).
    public var failedCommits = 0

    public init() {}
}
