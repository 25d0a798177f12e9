import GRDB
public import HealthModel

extension SampleRepository {
    /// The sources (apps) that have samples of `typeIdentifier` matching `predicate` visible in
    /// `scope`, by bundle identifier: HealthKit's source query. The distinct source ids are taken
    /// from the visible samples themselves (never from the sources table first), so a scope
    /// that sees only the app's own samples reads only those: a denied app finds itself, and
    /// only if it saved some.
    public func sources(of typeIdentifier: String, matching predicate: SamplePredicate?, scope visibility: Visibility) throws -> [SourceRecord] {
        try writer.read { db in
            let visible = SampleSQL.visibility(visibility.scope)
            var conditions = ["o.type_id = ?", visible.sql]
            var arguments: StatementArguments = [try SampleSQL.typeID(db, typeIdentifier)]
            arguments += visible.arguments
            if let predicate {
                let compiled = try SampleSQL.condition(predicate, of: typeIdentifier, within: visibility, db)
                conditions.append("(\(compiled.sql))")
                arguments += compiled.arguments
            }
            // The visible rows' distinct source ids drive the join (CROSS JOIN fixes the loop
            // order): the sources table is read one row per source found, so how many other
            // sources the store holds costs nothing.
            let sql = """
                SELECT s.bundle_identifier, s.name
                FROM (SELECT DISTINCT o.source_id AS id FROM objects o WHERE \(conditions.joined(separator: " AND "))) v
                CROSS JOIN sources s ON s.id = v.id
                ORDER BY s.bundle_identifier
                """
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                SourceRecord(bundleIdentifier: row["bundle_identifier"], name: row["name"], version: nil)
            }
        }
    }
}
