import GRDB
import Synchronization

/// The store's change number at an answer's first reading, for an answer read more than once:
/// every later reading of the same answer reads only rows committed by then (`change_seq <= ?`,
/// beside the visibility term). Held by the broker's `StreamVisibility`, so a stream that reads
/// again — a batch after the first, or a frame recomputed because the reader's view went stale —
/// never adds what was committed after its first reading; that belongs to the next delivery.
///
/// The one mechanism for every answer kind: sample and correlation queries (`queryFetched`,
/// `queryCorrelations`, which take it beside their `SampleQueryResume` position), the change feed,
/// statistics, activity summaries, effort relations, and the watches' deliveries.
///
/// Why it matters for privacy (DESIGN.md §7.3): a stale answer is read again when *any* object
/// left the store, another app's hidden deletion included. Had that second reading been at a newer
/// snapshot, a reader that stalled the answer and committed a sample of its own meanwhile would see
/// the sample exactly when someone else had deleted something. Bounded by the first reading, the
/// second gives the first one's rows less those that left — rows the reader could see, which left
/// in the twin store too.
public final class ReadSnapshot: Sendable {
    private let recorded = Mutex<Int64?>(nil)
    /// The store's change number at the most recent reading (the first one's included): every
    /// deletion committed by then is already reflected in what that reading computed.
    private let latest = Mutex<Int64?>(nil)

    public init() {}

    /// What a reading in `db` is bounded by: `through`, the first reading's change number (this
    /// reading's own, recorded now, when it is the first); `confines` is false for the first
    /// reading, whose rows are all committed by `through` already, so it needs no condition (and
    /// its statements keep their covering indexes).
    func bound(_ db: Database) throws -> (through: Int64, confines: Bool) {
        let now = try Self.changeNumber(db)
        latest.withLock { $0 = max($0 ?? now, now) }
        if let through = recorded.withLock({ $0 }) { return (through, true) }
        return recorded.withLock { recorded in
            if let earlier = recorded { return (earlier, true) }
            recorded = now
            return (now, false)
        }
    }

    /// The bound one reading in `db` applies: nil for the answer's first reading (which records
    /// its number), the first reading's change number for every later one. Asked once per reading.
    func confinement(_ db: Database) throws -> Int64? {
        let bound = try self.bound(db)
        return bound.confines ? bound.through : nil
    }

    /// Records a reading of one object's data, which does not change once stored (a series'
    /// points, a finished route's locations, an attachment's chunks): there is nothing to bound,
    /// but its change number is what the stream asks `VisibleDeletions` about, so that only a
    /// deletion its reader could see reads it again. Unrecorded, any deletion in the store did,
    /// and the reading again (a route's locations counted and skipped afresh, a series decoded
    /// again) was work a reader of its own object could time.
    func recordReading(_ db: Database) throws {
        _ = try bound(db)
    }

    /// The change number recorded by the first reading; nil before it.
    public var change: Int64? { recorded.withLock { $0 } }

    /// The change number of the most recent reading; nil before the first. A deletion with a
    /// higher number may have removed a row that reading computed (`VisibleDeletions`).
    public var lastReading: Int64? { latest.withLock { $0 } }

    static func changeNumber(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM counters WHERE name = 'change'")) ?? 0
    }
}

extension ReadSnapshot? {
    /// The bound one reading in `db` applies (see `bound`): nil without a snapshot or for the
    /// answer's first reading. Asked once per reading: the first reading's later statements must
    /// not take the number it just recorded for an earlier reading's.
    func confinement(_ db: Database) throws -> Int64? {
        try self?.confinement(db)
    }
}
