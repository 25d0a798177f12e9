import GRDB
import HealthModel

/// App ids an older version stored with a scalar outside ASCII (v71), such as
/// `com.example.\u{212A}eep` (KELVIN SIGN) beside `com.example.Keep`. Since session 22 no such id
/// can be installed, serve or be given anything (`AppIDRule`), but the rows stay: the store tells
/// them apart by bytes, Swift's `String` does not, so every table healthd seeds from stored rows
/// by app id — `StorageUse` (`app_storage`), background-delivery watches, `apps list`'s network
/// and direct-connection flags — could take one app's rows for the other's.
///
/// Decided: not merged (they are two apps to the store, with their own grants, data and counts;
/// which one the user meant is not ours to guess) and not deleted (nothing is lost), but kept
/// apart under their escaped spelling — every scalar outside printable ASCII written `\u{…}`,
/// the spelling `apps list` already shows and `apps remove` already takes. That spelling is
/// ASCII, so byte equality and Swift equality agree on it and it can no longer equal a real
/// app's id in any dictionary; and it holds `\`, `{` and `}`, which `AppIDRule` refuses, so no
/// manifest can ever be installed under it and inherit the rows. One rewrite here closes every
/// seeding table at once, today's and any later one that reads the same columns.
///
/// Rewritten: `apps.id`, every `app_id` column (`KeyColumns`), and the app's own source
/// (`sources.bundle_identifier`) and priority entries. Not rewritten: the access log, whose
/// entries are hash-chained (`AccessLogRepository`): they keep the spelling they were written
/// under, as a record of what happened. An escaped spelling some other row already has (two
/// look-alikes escaping alike cannot happen; an ASCII id spelled like an escape can) is left
/// as it was and named in a notice.
enum LookalikeAppIDs {
    static func keepApart(_ db: Database) throws -> [String] {
        let columns = try appIDColumns(db)
        var all = Set<[UInt8]>()
        var lookalikes: [String] = []
        for column in columns {
            for id in try String.fetchAll(db, sql: "SELECT DISTINCT \(column.quotedColumn) FROM \(column.quotedTable) WHERE \(column.quotedColumn) IS NOT NULL") {
                guard all.insert(Array(id.utf8)).inserted else { continue }
                if !id.hasPrefix("@"), id.unicodeScalars.contains(where: { !$0.isASCII }) { lookalikes.append(id) }
            }
        }
        var notices: [String] = []
        for id in lookalikes.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let escaped = KeySpellingUpgrade.escaped(id)
            guard all.insert(Array(escaped.utf8)).inserted else {
                notices.append("app id \(escaped) (not a valid id) NOT renamed: its escaped spelling is already stored; "
                               + "remove it (healthctl apps remove) before installing the app it looks like again")
                continue
            }
            for column in columns {
                try db.execute(sql: "UPDATE \(column.quotedTable) SET \(column.quotedColumn) = ? WHERE \(column.quotedColumn) = ?",
                               arguments: [escaped, id])
            }
            notices.append("app id \(escaped) (not a valid id: it holds characters outside ASCII, so it could pass for another "
                           + "app's) kept apart under that escaped spelling; it cannot run: remove it with healthctl apps remove '\(escaped)'")
        }
        return notices
    }

    /// Where app ids are kept, the access log aside: `apps.id`, every `app_id` column, and the
    /// source and priority keys (which hold app ids and `@`-prefixed keys of other sources).
    private static func appIDColumns(_ db: Database) throws -> [KeyColumns.Column] {
        [KeyColumns.Column(table: "apps", column: "id"),
         KeyColumns.Column(table: "sources", column: "bundle_identifier"),
         KeyColumns.Column(table: "source_priority", column: "bundle_identifier")]
            + (try KeyColumns.named("app_id", db)).filter { $0.table != "access_log" }
    }
}
