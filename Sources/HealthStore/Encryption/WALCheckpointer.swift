import Foundation
import GRDB
import GRDBSQLite

/// When the WAL is copied back into the database, and by whom (issue 17).
public struct WALCheckpointing: Sendable, Equatable {
    /// WAL frames after a commit that wake the background checkpointer (SQLite's own automatic
    /// checkpoint threshold).
    public var backgroundFrames: Int32
    /// WAL frames after a commit past which the committing writer checkpoints by itself, before
    /// its save is answered, as SQLite's automatic checkpoint did for every one: the bound on the
    /// WAL's size when the background checkpoint cannot keep up (a reader holding an old
    /// snapshot, a stalled disk). 16,000 frames of 4 KiB pages ≈ 64 MiB.
    public var inlineFrames: Int32

    /// WAL frames a commit may leave beyond what the background checkpointer's last pass copied
    /// for the committing writer to copy them itself, so that the next transaction restarts the
    /// WAL (`WALCheckpointer`, "finishing"): a quarter of `backgroundFrames`.
    public var finishingFrames: Int32 { backgroundFrames / 4 }

    public static let standard = WALCheckpointing(backgroundFrames: 1_000, inlineFrames: 16_000)

    public init(backgroundFrames: Int32, inlineFrames: Int32) {
        self.backgroundFrames = backgroundFrames
        self.inlineFrames = max(inlineFrames, backgroundFrames)
    }
}

/// Checkpoints the WAL on a thread of its own, off the request path.
///
/// Why: with SQLite's automatic checkpoint, the commit that passes 1,000 WAL frames runs the
/// checkpoint on the writer's thread before its save is answered — a sync of the WAL, every page
/// copied into the database, a sync of the database: 0.45 s for that one save in session 8's
/// trace, about one save in 77, and every save queued behind it waited too.
///
/// Shape: a WAL hook on the writer connection (it replaces the automatic checkpoint, which is
/// SQLite's own WAL hook) sees each commit's frame count. Past `backgroundFrames` it wakes this
/// thread, which runs a PASSIVE checkpoint on its own read-write connection while the writer
/// goes on committing (PASSIVE never blocks writers or readers; the pool's readers are read-only
/// and cannot checkpoint). Once a checkpoint has copied the whole WAL, the writer's next commit
/// restarts the WAL from its start. Past `inlineFrames` the writer checkpoints by itself, as
/// before, so the WAL stays bounded whatever this thread does.
///
/// Finishing (issue 17, session 20): a background pass copies the frames committed before it
/// began, and the writer keeps committing meanwhile, so when it ends the WAL holds a few frames
/// more than it copied. The WAL restarts only when a write transaction begins with every frame
/// copied, which a pass ending between two commits of a busy writer rarely allows: the log kept
/// growing, every commit past the threshold asked for another pass, and a writer saving in a loop
/// had the checkpointer syncing the WAL and the database after nearly every save (0.2–0.6 extra
/// fsyncs per one-sample save measured, and the WAL's index sorted again on each pass). So when a
/// commit leaves at most `finishingFrames` beyond what the last completed pass copied (and no pass
/// is running), the writer copies those few itself — a PASSIVE checkpoint on its own connection,
/// a few pages and two syncs on that save — and its next transaction restarts the WAL. One
/// background pass and one small finish per cycle of `backgroundFrames`, instead of a pass per
/// commit.
///
/// Durability is SQLite's: a checkpoint only copies frames of committed transactions, each
/// already synced at its commit (synchronous=FULL); the WAL is synced before any page is copied
/// and the database synced before the WAL may be reused, so a crash mid-checkpoint leaves the WAL
/// whole and recovery replays it (PowerLossTests, WALCheckpointerTests).
final class WALCheckpointer: @unchecked Sendable {
    let policy: WALCheckpointing
    private let connection: DatabaseQueue
    // Guards `requested`, `stopping`, `suspended` and the counters; the thread waits on it.
    private let condition = NSCondition()
    private var requested = false
    private var stopping = false
    private var suspended = false
    private var cycle: CheckpointCycle
    private var counters = WALCheckpointStatistics()
    private let finished = DispatchSemaphore(value: 0)

    init(connection: DatabaseQueue, policy: WALCheckpointing) {
        self.connection = connection
        self.policy = policy
        cycle = CheckpointCycle(policy: policy)
        let thread = Thread { [self] in run() }
        thread.name = "openhealthkit.store.checkpoint"
        thread.start()
    }

    var statistics: WALCheckpointStatistics {
        condition.withLock { counters }
    }

    /// Replaces the automatic checkpoint of `writer`'s connection with this checkpointer's hook.
    /// The hook keeps this object alive (one retain, never given back): the pool may outlive the
    /// `EncryptedDatabase` that made it (a `HealthDatabase` holds its writer), and a hook must not
    /// point at a freed object. Once closed, the object is a few bytes with no thread and no
    /// connection, and the hook checkpoints on the writer as SQLite's automatic checkpoint did.
    func install(on writer: DatabasePool) throws {
        let context = Unmanaged.passRetained(self).toOpaque()
        try writer.writeWithoutTransaction { db in
            _ = sqlite3_wal_hook(db.sqliteConnection, { context, db, name, frames in
                guard let context else { return SQLITE_OK }
                return Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(frames: frames, db, name)
            }, context)
        }
    }

    /// Stops the thread after any checkpoint it is running, then closes its connection. From then
    /// on the writer checkpoints by itself at `backgroundFrames`. Safe to call more than once.
    func close() throws {
        let first = condition.withLock {
            defer { stopping = true; condition.signal() }
            return !stopping
        }
        guard first else { return }
        finished.wait()
        try connection.close()
    }

    /// Tests: hold background checkpoints (requests are remembered) until `resume()`.
    func suspend() { condition.withLock { suspended = true } }

    func resume() {
        condition.withLock {
            suspended = false
            condition.signal()
        }
    }

    /// Runs on the writer's thread after each commit, inside SQLite: nothing here may use the
    /// writer connection through GRDB.
    private func committed(frames: Int32, _ db: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> Int32 {
        let step = condition.withLock { () -> CheckpointCycle.Step in
            let step = cycle.committed(frames: frames, stopping: stopping)
            switch step {
            case .request:
                requested = true
                condition.signal()
            case .finish:
                requested = false  // the finish copies what a pass would
            case .none, .inline:
                break
            }
            return step
        }
        guard step == .inline || step == .finish else { return SQLITE_OK }
        // The bound (SQLite's automatic checkpoint, on the writer, as it always did), or the
        // finish of what the last background pass left: the same PASSIVE checkpoint.
        let code = sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        condition.withLock {
            if step == .inline { counters.inline += 1 } else { counters.finished += 1 }
            // A busy checkpoint is normal (a reader's snapshot, a pass that began meanwhile).
            if code != SQLITE_OK && code != SQLITE_BUSY { counters.failedOnWriter += 1 }
        }
        // Never the commit's error: the transaction is committed and durable before SQLite calls
        // this hook, and what the hook returns becomes the COMMIT statement's result. Returned, a
        // failed checkpoint (a full disk: the database file must grow) told the caller its saved
        // data was not saved, and GRDB, seeing COMMIT fail after its commit hook ran, told no
        // observer, so the change went unannounced (cipherreview21, finding 2). SQLite's own
        // automatic checkpoint ignores the result the same way. The frames stay in the WAL: the
        // next commit past `backgroundFrames` asks for a pass (a finish is used up either way) and
        // the next past `inlineFrames` checkpoints again.
        return SQLITE_OK
    }

    private func run() {
        while true {
            condition.lock()
            while !stopping && (!requested || suspended) { condition.wait() }
            if stopping {
                condition.unlock()
                finished.signal()
                return
            }
            requested = false
            cycle.passBegan()
            condition.unlock()
            let outcome = Result { try connection.writeWithoutTransaction { db in try db.checkpoint(.passive) } }
            condition.withLock {
                switch outcome {
                case let .success(result) where result.walFrameCount == result.checkpointedFrameCount:
                    cycle.passEnded(copiedAll: Int32(clamping: result.walFrameCount))
                    counters.complete += 1
                case .success:
                    cycle.passEnded(copiedAll: nil)
                    counters.partial += 1  // a reader's snapshot stopped it; the next commit asks again
                case .failure:
                    cycle.passEnded(copiedAll: nil)
                    // The WAL keeps every frame; the next request retries, and `inlineFrames`
                    // bounds the WAL meanwhile.
                    counters.failed += 1
                }
            }
        }
    }
}

/// Checkpoints since the store was opened.
public struct WALCheckpointStatistics: Sendable, Equatable {
    /// Background checkpoints that copied the whole WAL.
    public var complete = 0
    /// Background checkpoints stopped short by a reader.
    public var partial = 0
    /// Background checkpoints that failed (an I/O error); retried on the next request.
    public var failed = 0
    /// Checkpoints the writer ran itself because the WAL passed `inlineFrames`.
    public var inline = 0
    /// Checkpoints the writer ran itself to copy the few frames a complete background pass left,
    /// so that its next transaction restarts the WAL (`WALCheckpointing.finishingFrames`).
    public var finished = 0
    /// Of `inline` and `finished`, those that failed (an I/O error, a full disk). The commit
    /// before them stands; the frames stay in the WAL for a later checkpoint.
    public var failedOnWriter = 0

    public init() {}
}
