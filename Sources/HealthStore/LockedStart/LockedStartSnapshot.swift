import Foundation
import GRDB

/// What a locked start serves from (ARCHITECTURE.md "Starting locked"): the rows of the tables
/// the grants copy holds — apps, grants (with temporary grants' expiries), the direct-connection
/// and network opt-ins, the apps' sandbox uids — and the `locked_start` row that names the next
/// pending journal and its public key. Never a sample, a source or a key's private half.
///
/// Encoded as JSON, sealed by `LockedStartFiles`; decoded only after it authenticated.
struct LockedStartSnapshot: Codable, Equatable {
    static let currentFormat = 1
    static let tables = StoreSchema.lockedStartTables + ["locked_start"]

    struct Table: Codable, Equatable {
        let name: String
        let columns: [String]
        let rows: [[Cell]]
    }

    /// One SQLite value, as stored.
    enum Cell: Codable, Equatable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(Data)

        init(_ value: DatabaseValue) {
            switch value.storage {
            case .null: self = .null
            case let .int64(value): self = .integer(value)
            case let .double(value): self = .real(value)
            case let .string(value): self = .text(value)
            case let .blob(value): self = .blob(value)
            }
        }

        var databaseValue: DatabaseValue {
            switch self {
            case .null: .null
            case let .integer(value): value.databaseValue
            case let .real(value): value.databaseValue
            case let .text(value): value.databaseValue
            case let .blob(value): value.databaseValue
            }
        }
    }

    var format = Self.currentFormat
    let tables: [Table]

    /// The snapshot of what `db` holds now (the open store, or the locked store's grants copy).
    static func read(_ db: Database) throws -> LockedStartSnapshot {
        let tables = try Self.tables.map { name in
            let columns = try db.columns(in: name).map(\.name)
            let rows = try Row.fetchAll(db, sql: "SELECT \(columns.joined(separator: ", ")) FROM \(name)")
            return Table(name: name, columns: columns, rows: rows.map { $0.databaseValues.map(Cell.init) })
        }
        return LockedStartSnapshot(tables: tables)
    }

    func encoded() throws -> [UInt8] {
        [UInt8](try JSONEncoder().encode(self))
    }

    static func decode(_ bytes: [UInt8], path: String) throws(LockedStartError) -> LockedStartSnapshot {
        let snapshot: LockedStartSnapshot
        do {
            snapshot = try JSONDecoder().decode(LockedStartSnapshot.self, from: Data(bytes))
        } catch {
            throw .snapshotMalformed(path: path, reason: "its contents do not decode")
        }
        guard snapshot.format == currentFormat else {
            throw .snapshotMalformed(path: path, reason: "format \(snapshot.format) is not supported by this version")
        }
        return snapshot
    }

    /// Puts the rows into `db`, a fresh in-memory store (full schema, no apps). Table and column
    /// names must be this schema's: the file authenticated, but the SQL is still only ever built
    /// from names the schema itself lists.
    func restore(into db: Database, path: String) throws {
        for table in tables {
            guard Self.tables.contains(table.name) else {
                throw LockedStartError.snapshotMalformed(path: path, reason: "unknown table \(table.name)")
            }
            let known = Set(try db.columns(in: table.name).map(\.name))
            guard !table.columns.isEmpty, table.columns.allSatisfy(known.contains),
                  table.rows.allSatisfy({ $0.count == table.columns.count }) else {
                throw LockedStartError.snapshotMalformed(path: path, reason: "the columns of \(table.name) do not match this version")
            }
            // OR REPLACE: the schema's own `locked_start` row is there already.
            let statement = try db.makeStatement(sql: """
                INSERT OR REPLACE INTO \(table.name) (\(table.columns.joined(separator: ", ")))
                VALUES (\(table.columns.map { _ in "?" }.joined(separator: ", ")))
                """)
            for row in table.rows {
                try statement.execute(arguments: StatementArguments(row.map(\.databaseValue)))
            }
        }
    }
}
