import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// v71 (`KeySpellingUpgrade`) over stores an older version left with one key in two spellings:
/// what it moves, what it keeps apart and says so, and that nothing is lost. Each store is made
/// by today's code, given the older version's rows, and put back to before v71.
@Suite(.timeLimit(.minutes(10))) struct KeySpellingUpgradeTests {
    static let nfc = "@import/Apple Health/Caf\u{E9}"
    static let nfd = "@import/Apple Health/Cafe\u{301}"
    static let source = SourceRecord(bundleIdentifier: nfc, name: "Caf\u{E9} (Apple Health)", version: nil)

    static func records(_ range: Range<Int>) -> [SampleRecord] { range.map(SyncKeyTests.imported) }

    /// Renames the NFC source to NFD, as an older version stored it.
    static func spellAsOlderVersion(_ db: Database) throws {
        try db.execute(sql: "UPDATE sources SET bundle_identifier = ?, name = ? WHERE bundle_identifier = ?",
                       arguments: [nfd, "Cafe\u{301} (Apple Health)", nfc])
    }

    static func beforeV71(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [StoreSchema.keySpellingsMigration])
        try db.execute(sql: "DROP TABLE store_upgrade_notices")
    }

    static func sources(_ writer: some DatabaseWriter) throws -> [(String, Int)] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT s.bundle_identifier, (SELECT count(*) FROM objects o WHERE o.source_id = s.id) AS n
                FROM sources s WHERE s.bundle_identifier LIKE '@import/%' ORDER BY s.id
                """).map { ($0[0] as String, $0[1] as Int) }
        }
    }

    /// Samples of the NFD row and the NFC row, a tombstone of the NFD row's and priority entries
    /// naming both spellings: one NFC source with every sample and the tombstone, the kinds of
    /// key joined, one priority entry at the better rank — and a re-import of both batches adds
    /// nothing. Without v71 (its work removed) the re-import of the NFD row's batch stored all 20
    /// again.
    @Test func theSpellingsOfAnImportSourceBecomeItsNFCRowWithEverythingThatReferredToThem() async throws {
        let writer = try SyncKeyTests.memoryStore()
        do {
            let database = try HealthDatabase(writer: writer)
            _ = try await database.samples.importBatch(Self.records(0 ..< 20), source: Self.source)
            try await writer.write(Self.spellAsOlderVersion)
            _ = try await database.samples.importBatch(Self.records(20 ..< 30), dated: [Bool](repeating: true, count: 10), source: Self.source)
        }
        try await writer.write { db in
            let nfdID = try Int64.fetchOne(db, sql: "SELECT id FROM sources WHERE bundle_identifier = ?", arguments: [Self.nfd])
            try db.execute(sql: "INSERT INTO deleted_objects (uuid, type_id, source_id, change_seq) VALUES (randomblob(16), 1, ?, 0)",
                           arguments: [nfdID])
            try db.execute(sql: "INSERT INTO source_priority (type_identifier, bundle_identifier, rank) VALUES ('t', ?, 0), ('t', ?, 1), ('u', ?, 0)",
                           arguments: [Self.nfc, Self.nfd, Self.nfd])
            try Self.beforeV71(db)
        }
        #expect(try Self.sources(writer).map(\.1) == [20, 10])

        let database = try HealthDatabase(writer: writer)
        let sources = try Self.sources(writer)
        #expect(sources.count == 1 && sources.first.map { $0.0.utf8.elementsEqual(Self.nfc.utf8) && $0.1 == 30 } == true, "\(sources)")
        try await writer.read { db in
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM sources WHERE bundle_identifier = ?", arguments: [Self.nfc])
            #expect(try Int64.fetchOne(db, sql: "SELECT source_id FROM deleted_objects") == id)
            let kinds = try Row.fetchAll(db, sql: "SELECT source_id, dated, undated FROM import_sync_key_kinds")
            #expect(kinds.count == 1 && kinds.first.map { ($0[0] as Int64?) == id && ($0[1] as Int) == 1 && ($0[2] as Int) == 1 } == true, "\(kinds)")
            let priority = try Row.fetchAll(db, sql: "SELECT type_identifier, bundle_identifier, rank FROM source_priority ORDER BY type_identifier")
                .map { "\($0[0] as String) \(KeySpellingUpgrade.escaped($0[1] as String)) \($0[2] as Int)" }
            #expect(priority == ["t @import/Apple Health/Caf\\u{E9} 0", "u @import/Apple Health/Caf\\u{E9} 0"], "\(priority)")
        }
        #expect(database.upgradeNotices.contains { $0.contains("Cafe\\u{301}\" merged into it (20 samples moved)") }, "\(database.upgradeNotices)")
        let again = try await database.samples.importBatch(Self.records(0 ..< 20), source: Self.source)
        let againDated = try await database.samples.importBatch(Self.records(20 ..< 30), dated: [Bool](repeating: true, count: 10), source: Self.source)
        #expect(again.added == 0 && againDated.added == 0, "\(again) \(againDated)")
    }

    /// The same batch imported under each spelling (what a re-import did after session 22, before
    /// v71): merged, one source would hold two objects of one sync identity. Both rows stay as
    /// they were, and the notice names the row not merged and why.
    @Test func spellingsHoldingTheSameSyncIdentifiersAreKeptApartAndNamed() async throws {
        let writer = try SyncKeyTests.memoryStore()
        do {
            let database = try HealthDatabase(writer: writer)
            _ = try await database.samples.importBatch(Self.records(0 ..< 5), source: Self.source)
            try await writer.write(Self.spellAsOlderVersion)
            _ = try await database.samples.importBatch(Self.records(0 ..< 5), source: Self.source)
        }
        try await writer.write(Self.beforeV71)
        let before = try Self.sources(writer)
        #expect(before.map(\.1) == [5, 5])

        let database = try HealthDatabase(writer: writer)
        let after = try Self.sources(writer)
        #expect(after.map { Array($0.0.utf8) } == before.map { Array($0.0.utf8) } && after.map(\.1) == [5, 5], "\(after)")
        #expect(database.upgradeNotices.count == 1
                && database.upgradeNotices[0].contains("NOT merged") && database.upgradeNotices[0].contains("5 samples"),
                "\(database.upgradeNotices)")
        let kept = try await writer.read { db in try String.fetchAll(db, sql: "SELECT notice FROM store_upgrade_notices") }
        #expect(kept == database.upgradeNotices)
    }

    /// A look-alike app id (KELVIN SIGN) is renamed to its escaped spelling in the app's rows, its
    /// grants, its storage count and its source; one whose escaped spelling some row already has
    /// is left as it was and named. Without v71 both kept their ids.
    @Test func aLookalikeAppIDIsRenamedToItsEscapedSpellingUnlessThatIsTaken() async throws {
        let writer = try SyncKeyTests.memoryStore()
        let kelvin = "com.example.\u{212A}eep", taken = "org.example.\u{212A}ind"
        do { _ = try HealthDatabase(writer: writer) }
        try await writer.write { db in
            for id in [kelvin, taken] {
                try db.execute(sql: """
                    INSERT INTO apps (id, display_name, executable, version, entitlements, installed_us) VALUES (?, 'K', '/bin/true', '1', '[]', 0)
                    """, arguments: [id])
                try db.execute(sql: "INSERT INTO grants (app_id, type_identifier, access, decision, decided_us) VALUES (?, 't', 1, 2, 0)", arguments: [id])
                try db.execute(sql: "INSERT INTO app_storage (app_id, used) VALUES (?, 7)", arguments: [id])
                try db.execute(sql: "INSERT INTO sources (bundle_identifier, name) VALUES (?, 'K')", arguments: [id])
            }
            // An older version's ASCII id spelled like the second look-alike's escape.
            try db.execute(sql: "INSERT INTO app_storage (app_id, used) VALUES (?, 1)", arguments: [KeySpellingUpgrade.escaped(taken)])
            try Self.beforeV71(db)
        }
        let database = try HealthDatabase(writer: writer)
        let escaped = "com.example.\\u{212A}eep"
        try await writer.read { db in
            for (table, column) in [("apps", "id"), ("grants", "app_id"), ("app_storage", "app_id"), ("sources", "bundle_identifier")] {
                let ids = try String.fetchAll(db, sql: "SELECT \(column) FROM \(table) WHERE \(column) LIKE 'com.example.%'")
                #expect(ids == [escaped], "\(table): \(ids.map(KeySpellingUpgrade.escaped))")
                let kept = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(column) = ?", arguments: [taken])
                #expect(kept == 1, "\(table)")
            }
        }
        #expect(database.upgradeNotices.count == 2, "\(database.upgradeNotices)")
        #expect(database.upgradeNotices.contains { $0.contains(escaped) && $0.contains("kept apart") })
        #expect(database.upgradeNotices.contains { $0.contains("org.example.\\u{212A}ind") && $0.contains("NOT renamed") })
    }
}
