import GRDB

/// What a locked store keeps of the encrypted store: the installed apps, the user's grants, the
/// direct-connection and network opt-ins and the apps' sandbox uids, in an in-memory database (never on disk), so that identity,
/// `authorizationStatus`, requests and grant editing keep working while the data key is gone.
/// Grant changes made while locked go to the copy and, first, to the pending journal, whose merge
/// applies them to the store (StoreHandle.applyGrants); apps and direct connections are read-only
/// while locked.
///
/// The privacy cost (SECURITY.md, "Locked store"): while locked, healthd's memory still holds
/// which apps are installed and what the user granted them — not one sample. Apps launch while
/// locked (their uid and network setting come from here); one installed while locked cannot.
extension HealthDatabase {
    private static let copiedTables = ["apps", "grants", "direct_connection_apps", "network_apps", "app_sandbox_ids"]

    /// An in-memory HealthDatabase (full schema, empty) holding this store's apps, grants and
    /// direct-connection opt-ins.
    public func grantsCopy() throws -> HealthDatabase {
        let copy = try HealthDatabase(writer: try DatabaseQueue())
        let rows = try writer.read { db in
            try Self.copiedTables.map { table in (table, try Row.fetchAll(db, sql: "SELECT * FROM \(table)")) }
        }
        try copy.writer.write { db in
            for (table, tableRows) in rows {
                try Self.insert(tableRows, into: table, db)
            }
        }
        return copy
    }

    private static func insert(_ rows: [Row], into table: String, _ db: Database) throws {
        guard let columns = rows.first?.columnNames.map({ $0 }) else { return }
        let statement = try db.makeStatement(sql: """
            INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))
            """)
        for row in rows {
            try statement.execute(arguments: StatementArguments(row.databaseValues))
        }
    }
}
