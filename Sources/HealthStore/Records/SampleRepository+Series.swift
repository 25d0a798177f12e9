public import Foundation
import GRDB
public import HealthModel

/// Heartbeat series and electrocardiograms: streaming a series sample's points back.
extension SampleRepository {
    /// Streams the points of series sample `uuid` of `typeIdentifier` (a heartbeat series or an
    /// electrocardiogram), in order, in batches of `batchSize`, within `scope`; the last batch
    /// is marked done (an empty series is one empty, done batch). A sample outside `scope`, of
    /// another type, or that does not exist fails with `errorNoData`, the same for all three.
    public func seriesPoints(_ uuid: UUID, typeIdentifier: String, scope: ReadScope, batchSize: Int = 4_096,
                             emit: (_ firstIndex: Int, SeriesPoints, _ done: Bool) throws -> Void) throws {
        guard SeriesRows.holdsValue(of: typeIdentifier), batchSize > 0 else {
            throw HKError(.errorInvalidArgument, "\(typeIdentifier.prefix(100)) is not a heartbeat series or electrocardiogram type")
        }
        try writer.read { db in
            let visible = SampleSQL.visibility(scope)
            // By the unique uuid index, then the type and scope tested on that one row: the
            // lookup costs the same whether a hidden sample has this UUID or none does.
            guard let objectID = try Int64.fetchOne(db, sql: """
                SELECT o.id FROM objects o WHERE o.uuid = ? AND o.type_id = ? AND \(visible.sql)
                """, arguments: [uuid, try SampleSQL.typeID(db, typeIdentifier)] + visible.arguments) else {
                throw HKError(.errorNoData, "no \(Self.seriesName(typeIdentifier)) with this UUID is available to this app")
            }
            let points = try SeriesRows.points(objectID: objectID, typeIdentifier: typeIdentifier, db)
            guard points.count > 0 else {
                try emit(0, points, true)
                return
            }
            for start in stride(from: 0, to: points.count, by: batchSize) {
                let end = min(points.count, start + batchSize)
                let slice: SeriesPoints = switch points {
                case let .heartbeats(beats): .heartbeats(Array(beats[start..<end]))
                case let .voltages(voltages): .voltages(Array(voltages[start..<end]))
                }
                try emit(start, slice, end == points.count)
            }
        }
    }

    private static func seriesName(_ typeIdentifier: String) -> String {
        typeIdentifier == HKElectrocardiogramTypeIdentifier ? "electrocardiogram" : "heartbeat series"
    }
}
