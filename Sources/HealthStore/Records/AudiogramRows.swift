import GRDB
import HealthModel

/// An audiogram's side rows (`audiograms`, `audiogram_tests`). Reads here are keyed by an object
/// id the caller already found visible (`SampleRowDecoder`), so no read here decides visibility.
enum AudiogramRows {
    /// Stores a validated audiogram (row id `objectID`); other values are not these tables'.
    static func insert(_ db: Database, objectID: Int64, _ value: SampleRecord.Value) throws {
        guard case let .audiogram(audiogram) = value else { return }
        try db.execute(sql: "INSERT INTO audiograms (object_id, point_count) VALUES (?, ?)",
                       arguments: [objectID, audiogram.points.count])
        let statement = try db.cachedStatement(sql: """
            INSERT INTO audiogram_tests (object_id, position, point, frequency_hz, sensitivity_dbhl, conduction_type,
                                         masked, side, clamping_lower_dbhl, clamping_upper_dbhl)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var position = 0
        for (index, point) in audiogram.points.enumerated() {
            for test in point.tests {
                try statement.execute(arguments: [objectID, position, index, point.frequency, test.sensitivity, test.conductionType,
                                                  test.masked, test.side, test.clampingLowerBound, test.clampingUpperBound])
                position += 1
            }
        }
    }

    static func holdsValue(of typeIdentifier: String) -> Bool {
        typeIdentifier == HKDataTypeIdentifierAudiogram
    }

    /// A fetched audiogram's value; nil for other types. Points are rebuilt from their tests in
    /// order; every stored point has a test (`AudiogramRules` refuses a point without one).
    static func value(objectID: Int64, typeIdentifier: String, _ db: Database) throws -> SampleRecord.Value? {
        guard holdsValue(of: typeIdentifier) else { return nil }
        guard let pointCount = try Int.fetchOne(db.cachedStatement(sql: "SELECT point_count FROM audiograms WHERE object_id = ?"),
                                                arguments: [objectID]) else {
            throw StoreIntegrityError.missingAudiogramRows
        }
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT point, frequency_hz, sensitivity_dbhl, conduction_type, masked, side, clamping_lower_dbhl, clamping_upper_dbhl
            FROM audiogram_tests WHERE object_id = ? ORDER BY position
            """), arguments: [objectID])
        var points: [AudiogramValue.Point] = []
        var pointIndex = -1
        for row in rows {
            let test = AudiogramValue.Test(sensitivity: row["sensitivity_dbhl"], conductionType: row["conduction_type"],
                                           masked: row["masked"], side: row["side"],
                                           clampingLowerBound: row["clamping_lower_dbhl"], clampingUpperBound: row["clamping_upper_dbhl"])
            let index: Int = row["point"]
            if index == pointIndex, !points.isEmpty {
                points[points.count - 1].tests.append(test)
            } else {
                points.append(AudiogramValue.Point(frequency: row["frequency_hz"], tests: [test]))
                pointIndex = index
            }
        }
        guard points.count == pointCount else { throw StoreIntegrityError.missingAudiogramRows }
        return .audiogram(AudiogramValue(points: points))
    }
}
