import Foundation
import GRDB
import HealthModel

/// Import sources an older version stored under one name in two spellings (v71). Since session 22
/// healthd builds an import source's key in NFC (`IdentityKeyText`); before, "Café" from an
/// export in NFD and "Café" in NFC were two `sources` rows — two sources in statistics by source,
/// a priority entry matching one of them, and a re-import of a file first imported under the NFD
/// spelling stored every sample again under the new NFC source (what a source already holds is
/// decided per source, `SampleRepository.importBatch`).
///
/// Rows are grouped in Swift by `precomposedStringWithCanonicalMapping` (SQLite's collations
/// compare bytes). Each group becomes its NFC row: every reference to another row of the group
/// (every source column, `KeyColumns.sourceReferences`) is moved to it, the kinds of sync key
/// the rows hold are joined, priority entries are renamed, and the other rows go. The sync
/// identities an import gave its samples come from the export's own text, not from the stored
/// name, so a re-import after the merge finds them in the one source.
///
/// Nothing is lost: a row that holds a sample with the same sync identifier as the NFC row (the
/// same export imported under both spellings — merged, the source would hold two objects of one
/// identity, which the save path never makes) or whose move breaks a UNIQUE rule is kept apart,
/// as it was, and named in a notice; the user can delete one copy and nothing else changes.
enum ImportSourceSpellings {
    struct Source {
        let id: Int64
        let bundleIdentifier: String
        let name: String
    }

    /// Merges every group; returns what it did, one sentence per group, for the user.
    static func merge(_ db: Database) throws -> [String] {
        let prefix = SourceRecord.importedPrefix
        let sources = try Row.fetchAll(db, sql: """
            SELECT id, bundle_identifier, name FROM sources WHERE substr(bundle_identifier, 1, \(prefix.utf8.count)) = ? ORDER BY id
            """, arguments: [prefix]).map { Source(id: $0["id"], bundleIdentifier: $0["bundle_identifier"], name: $0["name"]) }
        // Keyed by the NFC spelling's bytes: explicit about what is one key (for NFC strings bytes
        // and canonical equivalence agree anyway).
        var groups: [[UInt8]: [Source]] = [:]
        var order: [[UInt8]] = []
        for source in sources {
            let key = Array(IdentityKeyText.oneSpelling(source.bundleIdentifier).utf8)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(source)
        }
        let references = try KeyColumns.sourceReferences(db)
        var notices: [String] = []
        for key in order {
            guard let group = groups[key], group.contains(where: { !isNFC($0.bundleIdentifier) }) else { continue }
            notices.append(try merge(group, nfc: String(decoding: key, as: UTF8.self), references: references, db))
        }
        notices += try renamePriorityEntries(db)
        return notices
    }

    static func isNFC(_ text: String) -> Bool {
        text.utf8.elementsEqual(IdentityKeyText.oneSpelling(text).utf8)
    }

    /// One group into its NFC row (or, with none, the oldest row renamed to NFC).
    private static func merge(_ group: [Source], nfc: String, references: [KeyColumns.Column], _ db: Database) throws -> String {
        let keep = group.first { $0.bundleIdentifier.utf8.elementsEqual(nfc.utf8) } ?? group[0]
        var merged: [(Source, Int)] = []
        var apart: [(Source, String)] = []
        for other in group where other.id != keep.id {
            let shared = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM objects g WHERE g.source_id = ? AND g.sync_key IS NOT NULL AND EXISTS (
                    SELECT 1 FROM objects k WHERE k.source_id = ? AND k.sync_key = g.sync_key AND k.sync_identifier = g.sync_identifier)
                """, arguments: [other.id, keep.id]) ?? 0
            guard shared == 0 else {
                apart.append((other, "both hold \(shared) samples with the same sync identifiers (the same export imported under each spelling?)"))
                continue
            }
            let samples = try Int.fetchOne(db, sql: "SELECT count(*) FROM objects WHERE source_id = ?", arguments: [other.id]) ?? 0
            do {
                // The writer's one savepoint (`WriterSavepointRuleTests`): a move that fails
                // leaves the rest of the migration as it was.
                try CachedTransaction.inSavepoint(db) { try move(other.id, into: keep.id, references: references, db) }
                merged.append((other, samples))
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                apart.append((other, "moving its rows broke a rule of the store (\(error.message ?? "constraint"))"))
            }
        }
        // The kept row takes the NFC spelling (no other row has those bytes: the column is UNIQUE
        // and rows kept apart are not NFC), its display name too.
        try db.execute(sql: "UPDATE sources SET bundle_identifier = ?, name = ? WHERE id = ?",
                       arguments: [nfc, IdentityKeyText.oneSpelling(keep.name), keep.id])
        var notice = "import source \(shown(nfc)): "
        if merged.isEmpty, apart.isEmpty {
            notice += "renamed from \(shown(keep.bundleIdentifier)) to its NFC spelling, \(try sampleCount(keep.id, db)) samples kept"
        } else {
            if !merged.isEmpty {
                notice += merged.map { "\(shown($0.0.bundleIdentifier)) merged into it (\($0.1) samples moved)" }.joined(separator: "; ")
            }
            if !apart.isEmpty {
                if !merged.isEmpty { notice += "; " }
                notice += apart.map { "\(shown($0.0.bundleIdentifier)) NOT merged, kept as it was: \($0.1); "
                    + "delete one copy's samples (healthctl delete) if they are the same" }.joined(separator: "; ")
            }
        }
        return notice
    }

    /// Every row referring to source `from` refers to `into`; then `from` goes.
    private static func move(_ from: Int64, into: Int64, references: [KeyColumns.Column], _ db: Database) throws {
        // One row per source here: the kinds of key both hold, joined ("may hold" never shrinks).
        try db.execute(sql: """
            INSERT INTO import_sync_key_kinds (source_id, dated, undated)
            SELECT ?, dated, undated FROM import_sync_key_kinds WHERE source_id = ?
            ON CONFLICT (source_id) DO UPDATE SET dated = max(dated, excluded.dated), undated = max(undated, excluded.undated)
            """, arguments: [into, from])
        try db.execute(sql: "DELETE FROM import_sync_key_kinds WHERE source_id = ?", arguments: [from])
        for reference in references {
            try db.execute(sql: "UPDATE \(reference.quotedTable) SET \(reference.quotedColumn) = ? WHERE \(reference.quotedColumn) = ?",
                           arguments: [into, from])
        }
        try db.execute(sql: "DELETE FROM sources WHERE id = ?", arguments: [from])
    }

    /// Priority entries naming an import source in another spelling than NFC, renamed to NFC
    /// unless that spelling's own row was kept apart (then the entry still names a source).
    /// Where a type's order names both spellings, the better rank stays.
    private static func renamePriorityEntries(_ db: Database) throws -> [String] {
        let prefix = SourceRecord.importedPrefix
        let entries = try Row.fetchAll(db, sql: """
            SELECT type_identifier, bundle_identifier, rank FROM source_priority
            WHERE substr(bundle_identifier, 1, \(prefix.utf8.count)) = ? ORDER BY type_identifier, rank
            """, arguments: [prefix])
        var notices: [String] = []
        for entry in entries {
            let type: String = entry["type_identifier"], spelling: String = entry["bundle_identifier"], rank: Int64 = entry["rank"]
            guard !isNFC(spelling) else { continue }
            let stillStored = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sources WHERE bundle_identifier = ?)",
                                                arguments: [spelling]) ?? false
            guard !stillStored else { continue }
            let nfc = IdentityKeyText.oneSpelling(spelling)
            let nfcRank = try Int64.fetchOne(db, sql: "SELECT rank FROM source_priority WHERE type_identifier = ? AND bundle_identifier = ?",
                                             arguments: [type, nfc])
            if let nfcRank, nfcRank < rank {
                try db.execute(sql: "DELETE FROM source_priority WHERE type_identifier = ? AND bundle_identifier = ?", arguments: [type, spelling])
            } else {
                if nfcRank != nil {
                    try db.execute(sql: "DELETE FROM source_priority WHERE type_identifier = ? AND bundle_identifier = ?", arguments: [type, nfc])
                }
                try db.execute(sql: "UPDATE source_priority SET bundle_identifier = ? WHERE type_identifier = ? AND bundle_identifier = ?",
                               arguments: [nfc, type, spelling])
            }
            notices.append("source priority of \(type): the entry \(shown(spelling)) now names \(shown(nfc))")
        }
        return notices
    }

    private static func sampleCount(_ source: Int64, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM objects WHERE source_id = ?", arguments: [source]) ?? 0
    }

    /// A key as a notice shows it: quoted, escaped (`KeySpellingUpgrade.escaped`), so the two
    /// spellings read differently (`"@import/Apple Health/Cafe\u{301}"`).
    static func shown(_ key: String) -> String { "\"" + KeySpellingUpgrade.escaped(key) + "\"" }
}
