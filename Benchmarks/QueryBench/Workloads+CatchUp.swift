import Foundation
import GRDB
import HealthModel
import HealthStore
import HealthWire

/// The anchored catch-up: an app comes back with an anchor taken `catchUpCount` heart-rate
/// samples ago and reads every change since, as an HKAnchoredObjectQuery's initial results.
extension Workloads {
    /// The app the anchor is sealed for (anchors are bound to an app and a type).
    static let catchUpApp = "org.bench.reader"

    /// 100,000 changes, or every heart-rate sample in a run too short to hold that many.
    var catchUpCount: Int { min(100_000, data.minutes) }

    /// Where the app's anchor points: just before the last `catchUpCount` heart-rate changes,
    /// in the change feed's order. A save of 10,000 samples is one change number, so the
    /// position is a row inside a change, as a limited delivery leaves it.
    func catchUpCursor(_ db: Database) throws -> ChangeCursor {
        let row = try Row.fetchOne(db, sql: """
            SELECT change_seq, id FROM objects
            WHERE type_id = (SELECT id FROM sample_types WHERE identifier = ?)
            ORDER BY change_seq DESC, id DESC LIMIT 1 OFFSET ?
            """, arguments: [BenchData.heartRate, catchUpCount])
        guard let row else { return .origin }
        return ChangeCursor(change: row[0], table: .objects, row: row[1])
    }

    /// What the broker does for the query (AnchoredQueryService's initial delivery, no limit,
    /// an app allowed to read): open the anchor, read the changes after it 500 at a time
    /// (`ChangeFeedRepository.changes`, additions and deletions merged in change order), encode
    /// each step as an AnchoredQueryBatch, and seal the new anchor into the last one.
    func catchUpThroughOpenHealthKit(_ database: HealthDatabase, anchor: [UInt8]) throws -> Double {
        let anchors = database.changeFeed.anchors
        guard var cursor = anchors.open(anchor, appID: Self.catchUpApp, typeIdentifier: BenchData.heartRate) else {
            preconditionFailure("the bench's own anchor does not open")
        }
        var count = 0, bytes = 0
        while true {
            let batch = try database.changeFeed.changes(of: BenchData.heartRate, matching: nil, scope: .allSources,
                                                        after: cursor, limit: WireLimits.samplesPerBatch)
            cursor = batch.cursor
            count += batch.count
            let newAnchor = batch.reachedEnd ? try anchors.seal(cursor, appID: Self.catchUpApp, typeIdentifier: BenchData.heartRate) : []
            bytes += AnchoredQueryBatch(samples: batch.added, deletedObjects: batch.deleted,
                                        endOfDelivery: batch.reachedEnd, anchor: newAnchor).wireBytes().count
            if batch.reachedEnd { break }
        }
        precondition(count == catchUpCount && bytes > 0, "expected \(catchUpCount) changes, got \(count)")
        return Double(count)
    }

    static let catchUpSQL = """
        SELECT o.id, o.change_seq, o.uuid, o.start_us, o.end_us, o.quantity, o.metadata, s.bundle_identifier
        FROM objects o JOIN sources s ON s.id = o.source_id
        WHERE o.type_id = (SELECT id FROM sample_types WHERE identifier = ?) AND (o.change_seq, o.id) > (?, ?)
        ORDER BY o.change_seq, o.id
        LIMIT ?
        """

    /// The same rows after the same position, read with one SELECT, each column fetched once.
    func catchUpRawSQL(_ db: Database, after cursor: ChangeCursor) throws -> Double {
        var count = 0
        let rows = try Row.fetchCursor(db, sql: Self.catchUpSQL,
                                       arguments: [BenchData.heartRate, cursor.change, cursor.row, catchUpCount])
        while let row = try rows.next() {
            let id: Int64 = row[0], change: Int64 = row[1]
            let uuid: Data = row[2]
            let start: Int64 = row[3], end: Int64 = row[4]
            let value: Double = row[5]
            let metadata: String? = row[6]
            let source: String = row[7]
            if id > 0, change > 0, !uuid.isEmpty, start <= end, value.isFinite, metadata == nil, !source.isEmpty { count += 1 }
        }
        precondition(count == catchUpCount, "expected \(catchUpCount) rows, got \(count)")
        return Double(count)
    }
}
