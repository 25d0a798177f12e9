public import Foundation
import GRDB
public import HealthModel

/// The user's characteristics (date of birth, biological sex, …): set in the manager, read by
/// apps within their read scope.
public struct CharacteristicRepository: Sendable {
    let writer: any DatabaseWriter

    /// The source characteristics are stored under: the user. '@' cannot appear in an app id
    /// (`AppManifest.problems`), so no app ever owns them and an app's own-samples scope finds
    /// none of them. The user's own entries (`healthctl add`) are stored under it too, named
    /// "Health" as entries typed into Apple's Health app are.
    public static let userSource = SourceRecord.user

    /// The value of `type` as `scope` sees it: nil when it is unset or outside the scope, which
    /// the caller cannot tell apart (the same query answers both).
    public func value(of type: String, scope: ReadScope) throws -> CharacteristicRecord.Value? {
        try writer.read { db in
            let visible = SampleSQL.visibility(scope, alias: "c", table: .other)
            let row = try Row.fetchOne(db, sql: """
                SELECT c.enum_value, c.day FROM characteristics c
                WHERE c.type_identifier = ? AND \(visible.sql)
                """, arguments: [type] + visible.arguments)
            return try row.map(Self.value)
        }
    }

    /// Every characteristic the user set, by type identifier (the manager's view).
    public func all() throws -> [String: CharacteristicRecord.Value] {
        try writer.read { db in
            var values: [String: CharacteristicRecord.Value] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT type_identifier, enum_value, day FROM characteristics") {
                values[row["type_identifier"]] = try Self.value(row)
            }
            return values
        }
    }

    /// Stores `record` (already validated); a nil value removes the characteristic.
    public func set(_ record: CharacteristicRecord, at date: Date = Date()) throws {
        try writer.write { db in
            guard let value = record.value else {
                try db.execute(sql: "DELETE FROM characteristics WHERE type_identifier = ?", arguments: [record.typeIdentifier])
                return
            }
            var enumValue: Int?
            var day: String?
            switch value {
            case let .enumeration(raw): enumValue = raw
            case let .day(calendarDay): day = calendarDay.description
            }
            try db.execute(sql: """
                INSERT INTO characteristics (type_identifier, source_id, start_us, enum_value, day) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(type_identifier) DO UPDATE SET
                    start_us = excluded.start_us, enum_value = excluded.enum_value, day = excluded.day
                """, arguments: [record.typeIdentifier, try SampleRepository.sourceID(db, Self.userSource),
                                 date.microsecondsSince1970, enumValue, day])
        }
    }

    private static func value(_ row: Row) throws -> CharacteristicRecord.Value {
        if let raw: Int = row["enum_value"] { return .enumeration(raw) }
        guard let text: String = row["day"], let day = CalendarDay(iso8601: text) else {
            throw StoredValueError(table: "characteristics")
        }
        return .day(day)
    }
}

extension HealthDatabase {
    public var characteristics: CharacteristicRepository { CharacteristicRepository(writer: writer) }
}
