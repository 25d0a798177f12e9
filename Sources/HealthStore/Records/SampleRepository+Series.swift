public import Foundation
import GRDB
public import HealthModel

/// Heartbeat series, electrocardiograms and quantity series: streaming a series sample's points back.
extension SampleRepository {
    /// Streams the points of series sample `uuid` of `typeIdentifier` (a heartbeat series, an
    /// electrocardiogram, or a quantity sample: its quantities, one for a single-quantity
    /// sample), in order, in batches of `batchSize`, within `scope`; the last batch is marked done (an empty series is one empty, done batch). A sample outside `scope`, of
    /// another type, or that does not exist fails with `errorNoData`, the same for all three.
    public func seriesPoints(_ uuid: UUID, typeIdentifier: String, scope: ReadScope, batchSize: Int = 4_096,
                             emit: (_ firstIndex: Int, SeriesPoints, _ done: Bool) throws -> Void) throws {
        _ = try seriesPoints(uuid, typeIdentifier: typeIdentifier, scope: scope, batchSize: batchSize, from: 0) { first, points, done in
            try emit(first, points, done)
            return true
        }
    }

    /// `seriesPoints` for a reader whose view may go stale while it streams (the broker's
    /// `StreamVisibility`): `emit` returns false when it did not send the batch; the reading then
    /// stops and returns the index of that batch's first point (nil once the last batch was
    /// sent). Called again `from` that index, with the scope in force now, it looks the sample
    /// up again — one the reader lost fails as a missing one — and goes on from there: a
    /// sample's points never change (objects are immutable). `snapshot`: the stream's, which
    /// records each reading's change number (`ReadSnapshot.recordReading`).
    public func seriesPoints(_ uuid: UUID, typeIdentifier: String, scope: ReadScope, batchSize: Int = 4_096, from first: Int,
                             within snapshot: ReadSnapshot? = nil,
                             emit: (_ firstIndex: Int, SeriesPoints, _ done: Bool) throws -> Bool) throws -> Int? {
        let quantityType = HKObjectType.type(forIdentifier: typeIdentifier) as? HKQuantityType
        guard SeriesRows.holdsValue(of: typeIdentifier) || quantityType != nil, batchSize > 0 else {
            throw HKError(.errorInvalidArgument, "\(typeIdentifier.prefix(100)) is not a heartbeat series, electrocardiogram or quantity type")
        }
        return try writer.read { db in
            try snapshot?.recordReading(db)
            let visible = SampleSQL.visibility(scope)
            // By the unique uuid index, then the type and scope tested on that one row: the
            // lookup costs the same whether a hidden sample has this UUID or none does.
            guard let row = try Row.fetchOne(db, sql: """
                SELECT o.id, o.quantity, o.start_us, o.end_us, o.series_count FROM objects o
                WHERE o.uuid = ? AND o.type_id = ? AND \(visible.sql)
                """, arguments: [uuid, try SampleSQL.typeID(db, typeIdentifier)] + visible.arguments) else {
                throw HKError(.errorNoData, "no \(Self.seriesName(typeIdentifier)) with this UUID is available to this app")
            }
            let objectID: Int64 = row[0]
            let points: SeriesPoints
            if quantityType != nil {
                // A single-quantity sample is a series of one (HealthKit's series query reports
                // every quantity sample's quantities, whatever its count).
                if row[4] as Int64? == nil {
                    guard let value = row[1] as Double? else { throw StoreIntegrityError.missingSeriesRow }
                    points = .quantities([QuantitySeriesDatum(value: value, start: Date(microsecondsSince1970: row[2]),
                                                              end: Date(microsecondsSince1970: row[3]))])
                } else {
                    points = .quantities(try QuantitySeriesRows.data(objectID: objectID, db))
                }
            } else {
                points = try SeriesRows.points(objectID: objectID, typeIdentifier: typeIdentifier, db)
            }
            guard points.count > 0 else {
                return try emit(0, points, true) ? nil : 0
            }
            for start in stride(from: max(0, first), to: points.count, by: batchSize) {
                let end = min(points.count, start + batchSize)
                guard try emit(start, points.slice(start..<end), end == points.count) else { return start }
            }
            return nil
        }
    }

    private static func seriesName(_ typeIdentifier: String) -> String {
        switch typeIdentifier {
        case HKElectrocardiogramTypeIdentifier: "electrocardiogram"
        case HKDataTypeIdentifierHeartbeatSeries: "heartbeat series"
        default: "quantity sample"
        }
    }
}
