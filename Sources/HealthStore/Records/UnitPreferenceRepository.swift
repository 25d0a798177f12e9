public import Foundation
import GRDB
import HealthModel

/// The user's preferred unit per quantity type (`healthctl units set`). Not health data: it
/// says how the user reads values, not what they are.
public struct UnitPreferenceRepository: Sendable {
    let writer: any DatabaseWriter

    /// Unit strings by type identifier.
    public func all() throws -> [String: String] {
        try writer.read { db in
            var units: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT type_identifier, unit FROM unit_preferences") {
                units[row["type_identifier"]] = row["unit"]
            }
            return units
        }
    }

    /// Stores the user's unit for `type` (already validated), or removes it when `unit` is nil.
    public func set(_ unit: String?, for type: String, at date: Date = Date()) throws {
        try writer.write { db in
            guard let unit else {
                try db.execute(sql: "DELETE FROM unit_preferences WHERE type_identifier = ?", arguments: [type])
                return
            }
            try db.execute(sql: """
                INSERT INTO unit_preferences (type_identifier, unit, set_us) VALUES (?, ?, ?)
                ON CONFLICT(type_identifier) DO UPDATE SET unit = excluded.unit, set_us = excluded.set_us
                """, arguments: [type, unit, date.microsecondsSince1970])
        }
    }
}

extension HealthDatabase {
    public var unitPreferences: UnitPreferenceRepository { UnitPreferenceRepository(writer: writer) }
}
