import GRDB
import HealthModel

/// Imported correlations, which need rules of their own:
/// - HealthKit allows no sync identifier on a correlation, so its import identity lives in
///   `SampleRecord.importIdentityKey` and a correlation the source already holds is found by
///   type, dates and that identity (`holds`).
/// - Apple's export lists a correlation's samples twice: inside it, and again as top-level
///   records ("Any Records that appear as children of a correlation also appear as top-level
///   records", its DTD says). Stored as they come, every blood-pressure reading would count twice.
///   So a top-level record equal to a sample its source holds in a correlation is not stored
///   (`holdsAsMember`), and storing a correlation deletes the top-level copies of its samples
///   imported before it (`dropTopLevelCopies`) — through `ObjectDeleter`, so apps that saw them
///   learn they are gone. Equal means same source, type, dates and canonical value.
/// Only the import path applies these: an app's save of two equal samples stores both.
enum ImportedCorrelations {
    /// Whether the source holds a correlation of `record`'s type and dates with this identity
    /// (found through the type/source/start index, then the metadata compared).
    static func holds(_ record: SampleRecord, identity: String, sourceID: Int64, _ db: Database) throws -> Bool {
        let candidates = try String?.fetchAll(db.cachedStatement(sql: """
            SELECT metadata FROM objects
            WHERE type_id = ? AND source_id = ? AND start_us = ? AND end_us = ?
            """), arguments: [try SampleSQL.typeID(db, record.typeIdentifier), sourceID, record.startDate.microsecondsSince1970, record.endDate.microsecondsSince1970])
        return try candidates.contains { try MetadataCoding.decode($0)[SampleRecord.importIdentityKey] == .string(identity) }
    }

    /// Whether `record` (a quantity of a type correlations hold) equals a sample the source holds
    /// inside a correlation.
    static func holdsAsMember(_ record: SampleRecord, sourceID: Int64, _ db: Database) throws -> Bool {
        guard case let .quantity(value, _) = record.value, memberTypes.contains(record.typeIdentifier) else { return false }
        return try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT 1 FROM objects o
            WHERE o.type_id = ? AND o.source_id = ?
              AND o.start_us = ? AND o.end_us = ? AND o.quantity = ?
              AND EXISTS (SELECT 1 FROM correlation_members m WHERE m.member_id = o.id)
            LIMIT 1
            """), arguments: [try SampleSQL.typeID(db, record.typeIdentifier), sourceID, record.startDate.microsecondsSince1970,
                              record.endDate.microsecondsSince1970, value]) ?? false
    }

    /// After `record` (if a correlation) is stored: deletes the source's top-level samples equal
    /// to one of its samples, and returns how many.
    @discardableResult
    static func dropTopLevelCopies(ofMembersOf record: SampleRecord, sourceID: Int64, _ db: Database) throws -> Int {
        guard case let .correlation(members) = record.value else { return 0 }
        var rowIDs: [Int64] = []
        for member in members {
            guard case let .quantity(value, _) = member.value else { continue }
            rowIDs += try Int64.fetchAll(db.cachedStatement(sql: """
                SELECT o.id FROM objects o
                WHERE o.type_id = ? AND o.source_id = ?
                  AND o.start_us = ? AND o.end_us = ? AND o.quantity = ?
                  AND NOT EXISTS (SELECT 1 FROM correlation_members m WHERE m.member_id = o.id)
                """), arguments: [try SampleSQL.typeID(db, member.typeIdentifier), sourceID, member.startDate.microsecondsSince1970,
                                  member.endDate.microsecondsSince1970, value])
        }
        return try SampleRepository.deleteRows(rowIDs, db)
    }

    /// Every type a correlation may hold (blood pressure's two, food's dietary types).
    private static let memberTypes: Set<String> = Set(
        HKObjectType.allTypes.filter { $0 is HKCorrelationType }.flatMap { CorrelationRules.memberTypes(of: $0.identifier) }.map(\.identifier))
}
