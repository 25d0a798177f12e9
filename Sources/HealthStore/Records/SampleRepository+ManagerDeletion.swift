public import Foundation
import GRDB
public import HealthModel

/// The user's deletions (`healthctl delete`, `healthctl apps remove`): objects of any source,
/// through `ObjectDeleter` like an app's own deletions, so apps learn of them from anchored
/// queries as deleted objects. A dry run counts in a read transaction and changes nothing.
extension SampleRepository {
    /// Deletes the objects with these UUIDs, whatever their type and source, all or none. A UUID
    /// no object has fails the whole call, naming it, so a typo never deletes the rest silently.
    public func deleteAnySource(uuids: [UUID], dryRun: Bool) async throws -> Int {
        let unique = Array(Set(uuids))
        let find: @Sendable (Database) throws -> [Int64] = { db in
            let lookup = try db.cachedStatement(sql: "SELECT id FROM objects WHERE uuid = ?")
            return try unique.map { uuid in
                guard let rowID = try Int64.fetchOne(lookup, arguments: [uuid]) else {
                    throw HKError(.errorInvalidArgument, "no sample has the UUID \(uuid.uuidString.lowercased()); nothing was deleted")
                }
                return rowID
            }
        }
        if dryRun { return try await writer.read { db in try find(db).count } }
        return try await commits.submit(returning: { db in try Self.deleteRows(try find(db), db) })
    }

    /// Deletes every object of `typeIdentifier` that `predicate` matches (nil: all of them),
    /// whatever its source, and returns how many (routes deleted along with their workouts are
    /// not counted).
    public func deleteAnySource(typeIdentifier: String, predicate: SamplePredicate?, dryRun: Bool) async throws -> Int {
        let find: @Sendable (Database) throws -> [Int64] = { db in
            var sql = "SELECT o.id FROM objects o WHERE o.type_id = ?"
            var arguments: StatementArguments = [try SampleSQL.typeID(db, typeIdentifier)]
            if let predicate {
                let compiled = try SampleSQL.condition(predicate, of: typeIdentifier, within: Visibility.allSources, db)
                sql += " AND (\(compiled.sql))"
                arguments += compiled.arguments
            }
            return try Int64.fetchAll(db, sql: sql, arguments: arguments)
        }
        if dryRun { return try await writer.read { db in try find(db).count } }
        return try await commits.submit(returning: { db in try Self.deleteRows(try find(db), db) })
    }

    /// Deletes every object saved by the source `bundleIdentifier` (an app's id) and returns how many.
    public func deleteAll(fromSource bundleIdentifier: String) async throws -> Int {
        try await commits.submit(returning: { db in
            let rowIDs = try Int64.fetchAll(db, sql: """
                SELECT o.id FROM objects o JOIN sources s ON s.id = o.source_id WHERE s.bundle_identifier = ?
                """, arguments: [bundleIdentifier])
            return try Self.deleteRows(rowIDs, db)
        })
    }
}
