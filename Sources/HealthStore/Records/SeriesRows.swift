import Foundation
import GRDB
import HealthModel

/// A heartbeat series' or electrocardiogram's side row (`heartbeat_series`, `electrocardiograms`):
/// the summary a fetched sample carries, and the packed points `HKHeartbeatSeriesQuery` and
/// `HKElectrocardiogramQuery` stream.
enum SeriesRows {
    /// Stores the points of a validated series sample (row id `objectID`); other values are
    /// not this table's.
    static func insert(_ db: Database, objectID: Int64, _ value: SampleRecord.Value) throws {
        switch value {
        case let .heartbeatSeries(series):
            let beats = series.beats ?? []
            try db.execute(sql: "INSERT INTO heartbeat_series (object_id, beat_count, times, gaps) VALUES (?, ?, ?, ?)",
                           arguments: [objectID, beats.count, pack(beats.map(\.timeSinceSeriesStart)),
                                       Data(beats.map { $0.precededByGap ? 1 : 0 })])
        case let .electrocardiogram(ecg):
            let voltages = ecg.voltages ?? []
            try db.execute(sql: """
                INSERT INTO electrocardiograms (object_id, classification, symptoms_status, average_heart_rate,
                    sampling_frequency, voltage_count, voltages) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [objectID, ecg.classification, ecg.symptomsStatus, ecg.averageHeartRate,
                                 ecg.samplingFrequency, voltages.count, pack(voltages)])
        default:
            return
        }
    }

    /// Whether objects of `typeIdentifier` keep their value here rather than in `objects`.
    static func holdsValue(of typeIdentifier: String) -> Bool {
        typeIdentifier == HKDataTypeIdentifierHeartbeatSeries || typeIdentifier == HKElectrocardiogramTypeIdentifier
    }

    /// A fetched sample's value: counts and summary, without the points.
    static func value(objectID: Int64, typeIdentifier: String, _ db: Database) throws -> SampleRecord.Value? {
        switch typeIdentifier {
        case HKDataTypeIdentifierHeartbeatSeries:
            let count = try Int.fetchOne(db.cachedStatement(sql: "SELECT beat_count FROM heartbeat_series WHERE object_id = ?"),
                                         arguments: [objectID])
            guard let count else { throw StoreIntegrityError.missingSeriesRow }
            return .heartbeatSeries(HeartbeatSeriesValue(count: count))
        case HKElectrocardiogramTypeIdentifier:
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT classification, symptoms_status, average_heart_rate, sampling_frequency, voltage_count
                FROM electrocardiograms WHERE object_id = ?
                """), arguments: [objectID]) else {
                throw StoreIntegrityError.missingSeriesRow
            }
            return .electrocardiogram(ElectrocardiogramValue(
                classification: row["classification"], symptomsStatus: row["symptoms_status"],
                averageHeartRate: row["average_heart_rate"], samplingFrequency: row["sampling_frequency"],
                voltageCount: row["voltage_count"]))
        default:
            return nil
        }
    }

    /// The points of the series sample with row id `objectID`, all of them.
    static func points(objectID: Int64, typeIdentifier: String, _ db: Database) throws -> SeriesPoints {
        switch typeIdentifier {
        case HKDataTypeIdentifierHeartbeatSeries:
            guard let row = try Row.fetchOne(db, sql: "SELECT times, gaps FROM heartbeat_series WHERE object_id = ?",
                                             arguments: [objectID]) else { throw StoreIntegrityError.missingSeriesRow }
            let times = try unpack(row["times"])
            let gaps: Data = row["gaps"]
            guard gaps.count == times.count else { throw StoreIntegrityError.missingSeriesRow }
            return .heartbeats(zip(times, gaps).map { Heartbeat(timeSinceSeriesStart: $0, precededByGap: $1 != 0) })
        default:
            guard let data = try Data.fetchOne(db, sql: "SELECT voltages FROM electrocardiograms WHERE object_id = ?",
                                               arguments: [objectID]) else { throw StoreIntegrityError.missingSeriesRow }
            return .voltages(try unpack(data))
        }
    }

    /// Float64 values as little-endian bytes, 8 each.
    static func pack(_ values: [Double]) -> Data {
        var data = Data(capacity: values.count * 8)
        for value in values {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    static func unpack(_ data: Data) throws -> [Double] {
        guard data.count % 8 == 0 else { throw StoreIntegrityError.missingSeriesRow }
        var values: [Double] = []
        values.reserveCapacity(data.count / 8)
        data.withUnsafeBytes { raw in
            for offset in stride(from: 0, to: raw.count, by: 8) {
                values.append(Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))))
            }
        }
        return values
    }
}
