import Foundation
import GRDB
public import HealthModel

/// A type's changes (added objects and deleted objects) in change order, within a read scope:
/// what anchored and observer queries read. Like every query, it confines each table with
/// `SampleSQL.visibility`, inside the index (`StoreSchema.registerChangeFeed`), so a change
/// the scope hides is never read, counted or waited for.
public struct ChangeFeedRepository: Sendable {
    let writer: any DatabaseWriter
    /// Seals cursors into the anchors apps hold.
    public let anchors: AnchorSealer
    private let watcher: CommitWatcher

    /// `storage`: told of every commit and rollback on the writer (`CommitWatcher`).
    init(writer: any DatabaseWriter, storage: StorageUse? = nil) throws {
        self.writer = writer
        let (key, counter) = try writer.read { db in
            (try Data.fetchOne(db, sql: "SELECT key FROM change_feed_key WHERE id = 1"),
             try Int64.fetchOne(db, sql: "SELECT value FROM counters WHERE name = 'change'"))
        }
        guard var key else { throw StoreOpenError.cryptoFailure(operation: "loading the anchor key (it is missing)") }
        defer { key.resetBytes(in: 0..<key.count) }
        anchors = try AnchorSealer(key: key)
        // No change row: every save fails (`StoreIntegrityError.missingChangeCounter`), so no
        // row of `counters` can mean a change.
        watcher = try CommitWatcher(changeNumber: counter ?? 0, storage: storage)
        writer.add(transactionObserver: watcher, extent: .observerLifetime)
        try writer.writeWithoutTransaction { [watcher] db in try watcher.installCapture(db) }
    }

    /// Calls `listener` after every committed write that added or deleted objects, on the
    /// writer's thread, before the write's caller resumes. Keep it short; it replaces any
    /// earlier listener.
    public func onCommit(_ listener: @escaping @Sendable (CommittedChange) -> Void) {
        watcher.listen(listener)
    }

    /// The store's current change number: a cursor complete through it starts "from now".
    public func currentChange() throws -> Int64 {
        try writer.read { db in try Self.changeNumber(db) }
    }

    /// At most `limit` changes (additions and deletions together; 0 for no limit) of
    /// `typeIdentifier` after `cursor`, visible in `scope`, in change order, read in one
    /// snapshot. `predicate` applies to additions only: a deleted object keeps no dates or
    /// values to match, so every visible deletion of the type is reported.
    public func changes(of typeIdentifier: String, matching predicate: SamplePredicate?, scope: Visibility,
                        after cursor: ChangeCursor, limit: Int) throws -> ChangeBatch {
        try changes(of: [FeedPart(typeIdentifier: typeIdentifier, predicate: predicate, visibility: scope)],
                    after: cursor, limit: limit)
    }

    /// The changes of several types as one feed: at most `limit` of them (0 for no limit) after
    /// `cursor`, in change order across the types, read in one snapshot. Each part is read
    /// within its own visibility, exactly as a one-type feed of it would be, and the parts are
    /// merged by feed position; a cursor is a position in every type's feed at once (change
    /// numbers and row ids are store-wide), so one cursor serves the whole set. Parts must name
    /// distinct types (the same type twice would list its changes twice).
    ///
    /// With `batching`, the step also ends before the change that would take its encoded size
    /// past `batching.bytes` (it always holds its first change).
    ///
    /// With `snapshot` (a delivery's, `ReadSnapshot`), every step after the delivery's first reads
    /// only the changes committed by the first: a delivery never grows while it is sent, nor when
    /// it is read again because its reader's view went stale. A step that reaches the end is
    /// complete through the snapshot; later changes belong to the next delivery.
    public func changes(of parts: [FeedPart], after cursor: ChangeCursor, limit: Int,
                        batching: ChangeFeedBatching? = nil, within snapshot: ReadSnapshot? = nil) throws -> ChangeBatch {
        try writer.read { db in
            // Rows of a reading are committed by its change number: the bound is the first
            // reading's, on every table of every part.
            let now = try snapshot?.bound(db).through ?? Self.changeNumber(db)
            // One more than the limit from each table of each part tells whether the merge was cut short.
            let fetchLimit = limit > 0 ? limit + 1 : -1
            var deletedParts: [FeedRows<DeletedObjectRecord>] = []
            var addedParts: [FeedRows<SampleRecord>] = []
            for part in parts {
                let typeID = try SampleSQL.typeID(db, part.typeIdentifier)
                deletedParts.append(try ChangeFeedSQL.deletions(db, typeID: typeID, scope: part.visibility.scope,
                                                                after: cursor, through: now, limit: fetchLimit, batching: batching))
                addedParts.append(try ChangeFeedSQL.additions(db, typeID: typeID, typeIdentifier: part.typeIdentifier,
                                                              predicate: part.predicate, scope: part.visibility,
                                                              after: cursor, through: now, limit: fetchLimit, batching: batching))
            }
            var deleted = FeedRows.merged(&deletedParts)
            var added = FeedRows.merged(&addedParts)
            // Each table's rows are now in feed order: walk them as a merge would, only to count
            // how many of each the limit and the byte bound keep (the records stay where they are).
            // A table read only up to the byte bound ends at a change the walk cannot pass: the
            // rows the walk keeps are at least the bound's worth, so it stops there first.
            var keptDeleted = 0, keptAdded = 0
            var bytes = 0
            var last: ChangeCursor?
            while limit <= 0 || keptDeleted + keptAdded < limit {
                let nextDeleted = keptDeleted < deleted.count ? deleted.positions[keptDeleted] : nil
                let nextAdded = keptAdded < added.count ? added.positions[keptAdded] : nil
                let takeDeleted: Bool
                if let nextDeleted, nextAdded.map(nextDeleted.precedes) ?? true {
                    takeDeleted = true
                } else if nextAdded != nil {
                    takeDeleted = false
                } else {
                    break
                }
                if let batching {
                    // Every row read under `batching` was measured; a missing size counts as none.
                    let size = takeDeleted ? deleted.sizes.at(keptDeleted) : added.sizes.at(keptAdded)
                    if keptDeleted + keptAdded > 0, bytes > batching.bytes - size { break }
                    bytes += size
                }
                if takeDeleted {
                    keptDeleted += 1
                    last = nextDeleted
                } else {
                    keptAdded += 1
                    last = nextAdded
                }
            }
            let reachedEnd = keptDeleted == deleted.count && keptAdded == added.count && !deleted.cutShort && !added.cutShort
            deleted.keepFirst(keptDeleted)
            added.keepFirst(keptAdded)
            var batch = ChangeBatch(added: added.records, deleted: deleted.records,
                                    cursor: ChangeCursor(completeThrough: now), reachedEnd: reachedEnd)
            if !reachedEnd, let last { batch.cursor = last }
            return batch
        }
    }

    /// Whether `typeIdentifier` has a change after change number `change` that `scope` may see
    /// (an addition matching `predicate`, or a deletion), and the store's change number at the
    /// check. Observer queries ask this on every commit that touches their type.
    /// `includingWorkoutEffortRelations`: for an effort type, a relation of its samples made,
    /// unrelated or gone with its workout counts too, where the reader may see it
    /// (`WorkoutEffortRelationSQL.anyVisibleChange`) — what observers and background launches ask.
    public func hasChanges(of typeIdentifier: String, matching predicate: SamplePredicate?, scope: Visibility,
                           after change: Int64, includingWorkoutEffortRelations: Bool = false) throws -> (changed: Bool, through: Int64) {
        try writer.read { db in
            let now = try Self.changeNumber(db)
            let typeID = try SampleSQL.typeID(db, typeIdentifier)
            var changed = try ChangeFeedSQL.anyChange(db, typeID: typeID, typeIdentifier: typeIdentifier, predicate: predicate, scope: scope, after: change)
            if !changed, includingWorkoutEffortRelations {
                changed = try WorkoutEffortRelationSQL.anyVisibleChange(db, typeIdentifier: typeIdentifier, predicate: predicate,
                                                                        visibility: scope, after: change)
            }
            return (changed, now)
        }
    }

    // Cached statements: a delivery reads its changes in steps of 500, each asking these again.
    private static func changeNumber(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM counters WHERE name = 'change'")) ?? 0
    }
}
