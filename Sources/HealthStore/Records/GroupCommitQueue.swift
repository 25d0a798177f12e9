import Dispatch
import Foundation
import GRDB
import Synchronization

/// Group commit: concurrent saves share one write transaction, so one fsync (synchronous=FULL
/// commits are the cost of a small save) acknowledges many of them.
///
/// The shape is the classic leader/follower queue. A save appends itself to `waiting` and
/// suspends. If no drain is running, it starts one on `drainQueue`: the drain takes everything
/// waiting, commits it as one transaction, and only then resumes each save with its result; saves
/// that arrived during that commit (its fsync) form the next batch.
///
/// Before a group commits, its leader waits — only while one is missing, and at most as long as
/// the last commit took (`SiblingWait`) — for the siblings it expects back (`CommitSiblings`):
/// blocking submitters (reader threads) answered a moment ago, which are about to save again.
/// Without that wait the groups alternate between the saves that queued during the last commit
/// and those it just answered (issue 17: 4.2 saves a commit with 16 writers). This is
/// PostgreSQL's `commit_delay`/`commit_siblings` made precise: the wait ends as soon as every
/// expected sibling is back, it happens only when a *known* sibling is missing, and a lone writer
/// — never its own missing sibling — never waits. A writer that stops costs one group at most
/// one wait. Durability is untouched: a save is still answered only after the commit holding it.
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
/// next group itself (its siblings' saves with its own) and answers its save without any
/// hand-off; otherwise it waits, blocked, for the group that holds it (Benchmarks/README.md
/// "Session 10: durable save").
final class GroupCommitQueue: Sendable {
    typealias Work = @Sendable (Database) throws -> [UUID]

    private struct Submission: Sendable {
        let work: Work
        /// The blocked thread that submitted it (`submitBlocking`); nil for an async submitter,
        /// which a group never waits for.
        let submitter: CommitSiblings.Submitter?
        /// Called once, after the transaction holding `work` committed (or failed): resumes an
        /// async submitter, or wakes a blocked one.
        let finish: @Sendable (Result<[UUID], any Error>) -> Void
    }

    private struct State {
        var waiting: [Submission] = []
        var draining = false
        var siblings: CommitSiblings
        /// While a leader waits for its siblings (`gather`): the expected ones not yet queued. The
        /// arrival of the last of them, or of a full batch, signals `arrivals`.
        var missing: Set<CommitSiblings.Submitter>?
        /// How long the last commit took (`SiblingWait.forCommitsTaking`).
        var lastCommit: Duration = .zero
        var statistics = GroupCommitStatistics()

        /// Notes `submission`, just queued, as back; true when the waiting leader should look
        /// again: its last missing sibling arrived, or a whole batch is waiting.
        mutating func arrivalEndsWait(of submission: Submission) -> Bool {
            guard var stillMissing = missing else { return false }
            if let submitter = submission.submitter { stillMissing.remove(submitter) }
            missing = stillMissing
            guard stillMissing.isEmpty || waiting.count + 1 >= GroupCommitQueue.maximumBatch else { return false }
            missing = nil
            return true
        }
    }

    /// Bounds one transaction: how long the first save of a batch waits behind the others' work,
    /// and how much one WAL commit holds.
    static let maximumBatch = 256

    /// How long a group waits for the siblings it expects back (see the type's comment): as long
    /// as the last commit took, within these bounds. Waiting one commit's time at most doubles the
    /// latency of a save that gains nothing, and it spares a commit when the siblings come back in
    /// time; siblings slower than that form the next group while this one commits. The upper bound
    /// is also how long after its answer a writer is still expected, and the most a writer that
    /// stopped delays anyone. Below the lower bound an app's round trip (reply, next request,
    /// its decoding and checks: 0.1–2 ms with 16 writers on two cores) would rarely fit.
    static let defaultSiblingWait = SiblingWait(least: .microseconds(250), most: .milliseconds(4))

    /// The bounds of a group's wait for its siblings; a queue whose bounds are equal always waits
    /// that long for a missing sibling (tests: a policy check that scheduling delays cannot upset).
    struct SiblingWait: Sendable {
        let least: Duration
        let most: Duration

        func forCommitsTaking(_ last: Duration) -> Duration { min(max(last, least), most) }
    }

    private let writer: any DatabaseWriter
    private let siblingWait: SiblingWait
    private let state: Mutex<State>
    /// Signalled by a submission arriving while a leader waits for its siblings.
    private let arrivals = DispatchSemaphore(value: 0)
    private let drainQueue = DispatchQueue(label: "openhealthkit.store.group-commit")

    init(writer: any DatabaseWriter, siblingWait: SiblingWait = GroupCommitQueue.defaultSiblingWait) {
        self.writer = writer
        self.siblingWait = siblingWait
        state = Mutex(State(siblings: CommitSiblings(expectedFor: siblingWait.most)))
    }

    var statistics: GroupCommitStatistics {
        state.withLock { $0.statistics }
    }

    /// Runs `work` inside a write transaction, shared with the saves that overlap it, and returns
    /// its result once that transaction is durably committed.
    func submit(_ work: @escaping Work) async throws -> [UUID] {
        try await withCheckedThrowingContinuation { continuation in
            let submission = Submission(work: work, submitter: nil) { continuation.resume(with: $0) }
            if leads(submission) {
                drainQueue.async { self.drain(leading: submission) }
            }
        }
    }

    /// `submit` for a thread that may block until the commit — a connection's reader thread;
    /// never a thread of the cooperative pool (see the type's comment for the deadlock that
    /// causes). When no drain is running, this thread leads the next group itself: it gathers
    /// the siblings expected back, commits them with its own save, and only hands the saves that
    /// arrive after that to the drain thread; otherwise the drain commits it with the others and
    /// wakes this thread. Same transaction, savepoint and durability rules as `submit`: it
    /// returns once the transaction holding `work` is durably committed.
    func submitBlocking(_ work: @escaping Work) throws -> [UUID] {
        let outcome = BlockingCommitOutcome()
        let submission = Submission(work: work, submitter: CommitSiblings.current) { outcome.finish($0) }
        if leads(submission) {
            if let group = gather(leading: submission) { commit(group) }
            // Later saves are the drain thread's: this thread goes back to answering its own.
            let more = state.withLock { state in
                if state.waiting.isEmpty { state.draining = false }
                return state.draining
            }
            if more { drainQueue.async { self.drain(leading: nil) } }
        }
        return try outcome.wait()
    }

    /// Counts `submission` and queues it behind a running drain; true when none was running,
    /// and the caller must now lead the next group with it (`draining` is set for it).
    private func leads(_ submission: Submission) -> Bool {
        let (leads, wake) = state.withLock { state -> (Bool, Bool) in
            state.statistics.submitted += 1
            guard !state.draining else {
                state.waiting.append(submission)
                return (false, state.arrivalEndsWait(of: submission))
            }
            // No commit is running and none can start until `draining` is cleared: this save
            // leads the next group.
            state.draining = true
            return (true, false)
        }
        if wake { arrivals.signal() }
        return leads
    }

    private func drain(leading first: Submission?) {
        var own = first
        while let group = gather(leading: own) {
            own = nil
            commit(group)
        }
    }

    /// The next group: the leader's own save (`own`, not queued) and the saves waiting, at most
    /// `maximumBatch`, once no expected sibling is missing or `siblingWait` has passed. Nil, ending
    /// the drain (`draining` cleared), when there is nothing to commit.
    private func gather(leading own: Submission?) -> [Submission]? {
        var deadline: ContinuousClock.Instant?
        var waited = false
        while true {
            let next: GatherStep = state.withLock { state in
                let count = state.waiting.count + (own == nil ? 0 : 1)
                guard count > 0 else {
                    state.draining = false
                    return .nothingToCommit
                }
                state.missing = nil
                let now = ContinuousClock.now
                // The bound is set by the first look: one wait in all, however often woken.
                let bound = deadline ?? now + siblingWait.forCommitsTaking(state.lastCommit)
                deadline = bound
                if count < Self.maximumBatch, state.siblings.isExpectingAny {
                    var present = Set(state.waiting.lazy.compactMap(\.submitter))
                    if let submitter = own?.submitter { present.insert(submitter) }
                    if let missing = state.siblings.missing(present: present, now: now) {
                        if now < bound {
                            state.missing = missing.submitters
                            return .wait(until: min(missing.until, bound))
                        }
                        // Waited the whole bound: whoever is still missing is not expected any more.
                        state.siblings.forget(missing.submitters)
                        state.statistics.siblingTimeouts += 1
                    }
                }
                if waited { state.statistics.delayedCommits += 1 }
                let taken = min(state.waiting.count, Self.maximumBatch - (own == nil ? 0 : 1))
                let group = (own.map { [$0] } ?? []) + state.waiting.prefix(taken)
                state.waiting.removeFirst(taken)
                return .commit(group)
            }
            switch next {
            case .nothingToCommit: return nil
            case let .commit(group): return group
            case let .wait(until):
                waited = true
                let left = ContinuousClock.now.duration(to: until)
                _ = arrivals.wait(timeout: .now() + .nanoseconds(Int(max(0, left / .nanoseconds(1)))))
            }
        }
    }

    private enum GatherStep {
        case nothingToCommit
        case commit([Submission])
        case wait(until: ContinuousClock.Instant)
    }

    private func commit(_ batch: [Submission]) {
        let outcomes: [Result<[UUID], any Error>]
        let started = ContinuousClock.now
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
        let now = ContinuousClock.now
        state.withLock { state in
            state.lastCommit = started.duration(to: now)
            state.statistics.commits += 1
            state.statistics.committedSaves += committed
            state.statistics.largestGroup = max(state.statistics.largestGroup, batch.count)
            // Answered now: their threads are expected back with their next saves.
            let answered = zip(batch, outcomes).lazy.compactMap { submission, outcome -> CommitSiblings.Submitter? in
                if case .success = outcome { submission.submitter } else { nil }
            }
            state.siblings.noteAnswered(answered, at: now)
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
    /// Groups whose leader waited for an expected sibling before committing.
    public var delayedCommits = 0
    /// Of those, the waits that ran to `siblingWait` with a sibling still missing (it stopped
    /// saving, or came back too late); that sibling is no longer expected.
    public var siblingTimeouts = 0
    /// The most saves one commit held.
    public var largestGroup = 0

    public init() {}
}
