import Foundation
import GRDB
import HealthModel
import HealthStore
import Testing
import TestSupport

/// A store an older version left with one key in two spellings, upgraded by v71 (SECURITY.md
/// "Identity keys from outside text"): each world is built with today's healthd, the older
/// version's rows written into the encrypted store while healthd is stopped, and the store put
/// back to v70's shape (v71's record and table removed), so the next start upgrades it. Every
/// answer after the upgrade is compared with a twin store where the key only ever had one
/// spelling.
@Suite(.serialized, .timeLimit(.minutes(10))) struct KeySpellingUpgradeEndToEndTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let composed = CanonicalKeyEndToEndTests.composed
    static let decomposed = CanonicalKeyEndToEndTests.decomposed
    static let origin = "@import/Apple Health/"
    static let reader = "org.test.reader"
    /// 2021-01-01 and 2021-01-04 00:00 UTC: the collection's span, days 1–3 of the exports.
    static let from = 1_609_459_200, to = 1_609_718_400

    /// The store back at v70: v71 not recorded and its table gone, so the next start runs it.
    static func beforeV71(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v71:%'")
        try db.execute(sql: "DROP TABLE IF EXISTS store_upgrade_notices")
    }

    /// Exports: the Café source's samples of day 1 as its name came in NFD, of day 3 in NFC, and
    /// another source's sample over day 1, which the priority order ranks below Café.
    struct Exports {
        let nfd: String, nfc: String, other: String
        init(in folder: String) throws {
            nfd = try CanonicalKeyEndToEndTests.export(sourceName: KeySpellingUpgradeEndToEndTests.decomposed, day: 1, in: folder)
            let nfcFolder = folder + "/nfc", otherFolder = folder + "/other"
            for path in [nfcFolder, otherFolder] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
            nfc = try CanonicalKeyEndToEndTests.export(sourceName: KeySpellingUpgradeEndToEndTests.composed, day: 3, in: nfcFolder)
            other = try CanonicalKeyEndToEndTests.export(sourceName: "Other", day: 1, in: otherFolder)
        }
    }

    /// A world of the exports imported, the reader allowed to read steps and the priority order
    /// Café, Other. `twoSpellings`: as an older version left it — the NFD export stored under its
    /// NFD name (so the NFC export made a second source) and the order naming the NFD spelling;
    /// else as it is stored today (one NFC source). Started upgraded.
    static func world(twoSpellings: Bool) async throws -> (RestartableHealthd, Exports) {
        let healthd = try RestartableHealthd()
        let exports = try Exports(in: healthd.root)
        try healthd.start()
        try await healthd.installClient(reader)
        try await healthd.set(reader, "read", steps, allowed: true)
        try await expectImported(healthd, exports.nfd, added: 1)
        if twoSpellings {
            // What the older version stored: the source under the name as the export spelled it.
            healthd.stop()
            let store = try EncryptedDatabase.open(directory: healthd.storeDirectory)
            try await store.writer.write { db in
                try db.execute(sql: "UPDATE sources SET bundle_identifier = ?, name = ? WHERE bundle_identifier = ?",
                               arguments: [origin + decomposed, decomposed + " (Apple Health)", origin + composed])
                #expect(db.changesCount == 1)
            }
            try store.close()
            try healthd.start()
        }
        try await expectImported(healthd, exports.nfc, added: 1)
        try await expectImported(healthd, exports.other, added: 1)
        healthd.stop()
        let store = try EncryptedDatabase.open(directory: healthd.storeDirectory)
        try await store.writer.write { db in
            let cafe = origin + (twoSpellings ? decomposed : composed)
            try db.execute(sql: "INSERT INTO source_priority (type_identifier, bundle_identifier, rank) VALUES (?, ?, 0), (?, ?, 1)",
                           arguments: [steps, cafe, steps, origin + "Other"])
            let cafes = try Int.fetchOne(db, sql: "SELECT count(*) FROM sources WHERE bundle_identifier LIKE ?", arguments: [origin + "Caf%"])
            #expect(cafes == (twoSpellings ? 2 : 1))
            try beforeV71(db)
        }
        try store.close()
        try healthd.start()
        return (healthd, exports)
    }

    static func expectImported(_ healthd: RestartableHealthd, _ path: String, added: Int,
                               sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let result = try await healthd.healthctl(["import", path])
        #expect(result.status == 0 && result.stdout.contains("\(added) imported"), "\(result)\n\(healthd.log)", sourceLocation: sourceLocation)
    }

    /// What the user and an app see of the sources: both listings, the reader's daily sums
    /// merged (priority decides) and by source.
    static func answers(_ healthd: RestartableHealthd) async throws -> [String] {
        var answers: [String] = []
        for arguments in [["sources", "list"], ["sources", "list", "stepCount"]] {
            let result = try await healthd.healthctl(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            answers.append(result.stdout)
        }
        // Daily, and one week holding all three days: both Café samples in one interval.
        for (interval, extra) in [("day", []), ("day", ["--by-source"]), ("week", []), ("week", ["--by-source"])] {
            let result = try await healthd.runApp(reader, ["collection", steps, "--anchor", "\(from)", "--interval", interval, "--zone", "UTC",
                                                           "--from", "\(from)", "--to", "\(to)", "--options", "sum"] + extra)
            #expect(result.status == 0, "\(result)")
            answers.append(result.stdout)
        }
        return answers
    }

    /// Compared byte for byte: Swift's `==` would call the two spellings equal.
    static func bytes(_ answers: [String]) -> [[UInt8]] { answers.map { Array($0.utf8) } }

    /// Text with every scalar outside ASCII as `\u{…}`, so a failure shows which spelling it holds.
    static func escaped(_ text: String) -> String {
        text.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
    }

    /// The Café source in two spellings is merged into its NFC row: listings, statistics by
    /// source and the priority order answer as in the twin, healthd's log says what was merged,
    /// and importing both exports again stores nothing. Without v71: `sources list stepCount`
    /// lists two Café rows, the by-source sums two sources, and re-importing the NFD export
    /// stores its sample again under the NFC source ("1 imported").
    @Test func anImportSourceStoredInTwoSpellingsIsMergedAndAnswersAsItsTwin() async throws {
        let (upgraded, exports) = try await Self.world(twoSpellings: true)
        let (twin, _) = try await Self.world(twoSpellings: false)
        let upgradedAnswers = try await Self.answers(upgraded)
        let twinAnswers = try await Self.answers(twin)
        for (index, (mine, theirs)) in zip(upgradedAnswers, twinAnswers).enumerated() where Self.bytes([mine]) != Self.bytes([theirs]) {
            Issue.record("answer \(index) differs from the twin's:\n\(Self.escaped(mine))\n---\n\(Self.escaped(theirs))")
        }
        #expect(upgraded.log.contains("store upgrade") && upgraded.log.contains("Cafe\\u{301}"), "\(upgraded.log)")
        #expect(!twin.log.contains("store upgrade"), "\(twin.log)")

        for path in [exports.nfd, exports.nfc, exports.other] {
            try await Self.expectImported(upgraded, path, added: 0)
        }
        let again = try await Self.answers(upgraded)
        #expect(Self.bytes(again) == Self.bytes(twinAnswers), "\(again.map(Self.escaped))")
        #expect(upgraded.isRunning && twin.isRunning, "\(upgraded.log)")
    }

    /// An app id an older version stored with a KELVIN SIGN beside the real app's: after the
    /// upgrade it is stored under its escaped spelling, so healthd's tables seeded from stored
    /// rows keep the two apart — `apps list` (direct connections) and `apps storage` show
    /// `com.example.Keep` as a twin store without the look-alike does. Without v71 the real app
    /// was listed as allowed direct connections and charged the look-alike's bytes.
    @Test func aLookalikeAppIDIsKeptApartUnderItsEscapedSpelling() async throws {
        func world(lookalike: Bool) async throws -> RestartableHealthd {
            let healthd = try RestartableHealthd()
            try healthd.start()
            let manifest = try CanonicalKeyEndToEndTests.manifest(id: CanonicalKeyEndToEndTests.keep, in: healthd.root)
            let installed = try await healthd.healthctl(["apps", "install", manifest])
            #expect(installed.status == 0, "\(installed)")
            healthd.stop()
            let store = try EncryptedDatabase.open(directory: healthd.storeDirectory)
            try await store.writer.write { db in
                if lookalike {
                    let kelvin = CanonicalKeyEndToEndTests.kelvin
                    try db.execute(sql: "CREATE TEMP TABLE lookalike AS SELECT * FROM apps WHERE id = ?", arguments: [CanonicalKeyEndToEndTests.keep])
                    try db.execute(sql: "UPDATE lookalike SET id = ?", arguments: [kelvin])
                    try db.execute(sql: "INSERT INTO apps SELECT * FROM lookalike")
                    try db.execute(sql: "INSERT INTO direct_connection_apps (app_id, executable, allowed_us) VALUES (?, ?, 0)",
                                   arguments: [kelvin, BrokerProcess.clientExecutable])
                    try db.execute(sql: "INSERT INTO app_storage (app_id, used) VALUES (?, 5000000)", arguments: [kelvin])
                }
                try Self.beforeV71(db)
            }
            try store.close()
            try healthd.start()
            return healthd
        }
        let upgraded = try await world(lookalike: true)
        let twin = try await world(lookalike: false)
        // The real app's row, its fields without the padding (the look-alike's longer id widens
        // the column in the upgraded world).
        let keepLines = { (result: ProcessResult) in
            result.lines.filter { $0.hasPrefix(CanonicalKeyEndToEndTests.keep + " ") }.map { $0.split(separator: " ") }
        }
        for arguments in [["apps", "list"], ["apps", "storage"]] {
            let mine = try await upgraded.healthctl(arguments), theirs = try await twin.healthctl(arguments)
            #expect(mine.status == 0 && theirs.status == 0, "\(mine)\n\(theirs)")
            #expect(keepLines(mine) == keepLines(theirs) && keepLines(mine).count == 1, "\(arguments):\n\(mine.stdout)\n---\n\(theirs.stdout)")
        }
        let spelled = AppIDRule.spelled(CanonicalKeyEndToEndTests.kelvin)
        #expect(upgraded.log.contains("store upgrade") && upgraded.log.contains(spelled), "\(upgraded.log)")
        // Still listed with its problem, and removable by the spelling shown.
        let removed = try await upgraded.healthctl(["apps", "remove", spelled, "--keep-data"])
        #expect(removed.status == 0, "\(removed)")
        let after = try await upgraded.healthctl(["apps", "list"])
        let twinList = try await twin.healthctl(["apps", "list"])
        #expect(!after.stdout.contains(spelled) && keepLines(after) == keepLines(twinList), "\(after)")
        #expect(upgraded.isRunning && twin.isRunning, "\(upgraded.log)")
    }
}
