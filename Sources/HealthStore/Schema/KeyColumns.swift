import GRDB

/// The columns of the schema, read from the store itself, that hold one kind of identity key —
/// for a migration that rewrites such a key everywhere it is kept (v71, `KeySpellingUpgrade`).
/// Read at the migration, not listed by hand, so a table added later with the same column (or
/// with a foreign key to `sources`) is not missed.
enum KeyColumns {
    /// A table and one of its columns, for SQL (each name quoted).
    struct Column: Hashable {
        let table: String
        let column: String

        var quotedTable: String { Self.quoted(table) }
        var quotedColumn: String { Self.quoted(column) }

        static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    }

    /// Every column named `name` of an ordinary table, tables in name order.
    static func named(_ name: String, _ db: Database) throws -> [Column] {
        try String.fetchAll(db, sql: """
            SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND c.name = ? ORDER BY m.name
            """, arguments: [name]).map { Column(table: $0, column: name) }
    }

    /// Every column that refers to a source row: those named `source_id` and those declared as a
    /// foreign key to `sources`.
    static func sourceReferences(_ db: Database) throws -> [Column] {
        let declared = try Row.fetchAll(db, sql: """
            SELECT m.name AS tbl, f."from" AS col FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f
            WHERE m.type = 'table' AND f."table" = 'sources' ORDER BY m.name
            """).map { Column(table: $0["tbl"], column: $0["col"]) }
        var seen = Set<Column>()
        return (try named("source_id", db) + declared).filter { seen.insert($0).inserted }
    }
}
