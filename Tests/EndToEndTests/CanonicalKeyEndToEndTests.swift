import Foundation
import GRDB
import HealthModel
import HealthStore
import Testing
import TestSupport

/// Identity keys made of outside text (crashhunt22 finding 3): Swift compares strings by
/// canonical equivalence, the store's UNIQUE keys by bytes. An imported source name in two
/// spellings ("Café" as U+00E9 and as e + U+0301) or an app id with a KELVIN SIGN became two
/// rows that Swift sees as one key, and `healthctl sources list` trapped healthd for good
/// (`Dictionary(uniqueKeysWithValues:)`). Now app ids are ASCII (`AppIDRule`), imported source
/// names NFC (`IdentityKeyText`), and listings over stored rows never assume unique Swift keys.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CanonicalKeyEndToEndTests {
    static let composed = "Caf\u{E9}"
    static let decomposed = "Cafe\u{301}"
    static let keep = "com.example.Keep"
    static let kelvin = "com.example.\u{212A}eep"

    /// An export whose one step-count record comes from `sourceName`, on 2021-01-`day`.
    static func export(sourceName: String, day: Int, in folder: String) throws -> String {
        let path = folder + "/export-\(day).xml"
        let record = "<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" value=\"10\" sourceName=\"\(sourceName)\" "
            + "startDate=\"2021-01-0\(day) 10:00:00 +0000\" endDate=\"2021-01-0\(day) 10:00:30 +0000\"/>"
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n\(record)\n</HealthData>\n"
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The `sources list` lines naming the imported Café source, however spelled.
    static func cafeLines(_ result: ProcessResult) -> [String] {
        result.lines.filter { $0.contains("@import/Apple Health/Caf") }
    }

    static func manifest(id: String, in folder: String) throws -> String {
        let path = folder + "/manifest-\(UUID().uuidString.prefix(8)).json"
        try JSONSerialization.data(withJSONObject: [
            "id": id, "displayName": "Keep", "executable": BrokerProcess.clientExecutable, "version": "1.0",
            "NSHealthShareUsageDescription": "reads for a test",
        ]).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The export imported as NFC, healthd restarted (its source cache empty), then as NFD: one
    /// source holding both samples, and `sources list` answers. On main the second import made a
    /// second row and `sources list` killed healthd (exit 69, "lost healthd").
    @Test func aSourceNameImportedInTwoSpellingsIsOneSource() async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        let first = try await healthd.healthctl(["import", try Self.export(sourceName: Self.composed, day: 1, in: healthd.root)])
        #expect(first.status == 0 && first.stdout.contains("1 imported"), "\(first)")
        healthd.stop()
        try healthd.start()
        let second = try await healthd.healthctl(["import", try Self.export(sourceName: Self.decomposed, day: 3, in: healthd.root)])
        #expect(second.status == 0 && second.stdout.contains("1 imported"), "\(second)")

        let listed = try await healthd.healthctl(["sources", "list"])
        #expect(listed.status == 0, "\(listed)\n\(healthd.log)")
        #expect(healthd.isRunning, "\(healthd.log)")
        let lines = Self.cafeLines(listed)
        #expect(lines.count == 1, "\(listed.stdout)")
        // One row, named in NFC, holding both samples.
        #expect(lines.first.map { Array($0.unicodeScalars).contains("\u{E9}") && $0.contains(" 2 ") } == true, "\(lines)")
        let typed = try await healthd.healthctl(["sources", "list", "stepCount"])
        #expect(typed.status == 0 && Self.cafeLines(typed).count == 1, "\(typed)")
    }

    /// A manifest whose id only looks like an installed app's (KELVIN SIGN for K), or starts with
    /// '-', is refused with the id rule's words; an admin request naming such an id is refused by
    /// healthd with the same words (not "no installed app"), and the look-alike never lists.
    @Test func anAppIDOutsideASCIIOrStartingWithADashIsRefused() async throws {
        let broker = try BrokerProcess()
        let installed = try await broker.healthctl(["apps", "install", try Self.manifest(id: Self.keep, in: broker.root)])
        #expect(installed.status == 0, "\(installed)")
        for id in [Self.kelvin, "-com.example.keep", "com.example.caf\u{E9}"] {
            let refused = try await broker.healthctl(["apps", "install", try Self.manifest(id: id, in: broker.root)])
            #expect(refused.status != 0, "\(id) was installed: \(refused)")
            #expect((refused.stdout + refused.stderr).contains(AppIDRule.message), "\(id): \(refused)")
        }
        let grant = try await broker.healthctl(["grant", Self.kelvin, "read", "stepCount"])
        #expect(grant.status != 0 && grant.stderr.contains(AppIDRule.message), "\(grant)")
        #expect(grant.stderr.contains("com.example.\\u{212A}eep"), "the refusal shows what makes it a look-alike: \(grant)")
        let apps = try await broker.healthctl(["apps", "list"])
        #expect(apps.status == 0 && apps.lines.filter { $0.contains("com.example.") }.count == 1, "\(apps)")
        #expect(broker.isRunning, "\(broker.log)")
    }

    /// A store an older version left with one key in two spellings — an imported source as NFC
    /// and NFD, an app id with K and with KELVIN SIGN — written directly while healthd is stopped:
    /// every listing answers, and healthd keeps running. On main `sources list` trapped at
    /// SourcePriorityRepository.swift:50 (apps) and :62 (sources).
    @Test func aStoreHoldingTwoSpellingsOfOneKeyListsWithoutTrapping() async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        let installed = try await healthd.healthctl(["apps", "install", try Self.manifest(id: Self.keep, in: healthd.root)])
        #expect(installed.status == 0, "\(installed)")
        let imported = try await healthd.healthctl(["import", try Self.export(sourceName: Self.composed, day: 1, in: healthd.root)])
        #expect(imported.status == 0, "\(imported)")
        healthd.stop()

        let store = try EncryptedDatabase.open(directory: healthd.storeDirectory)
        try await store.writer.write { db in
            try db.execute(sql: "INSERT INTO sources (bundle_identifier, name) VALUES (?, ?)",
                           arguments: ["@import/Apple Health/" + Self.decomposed, Self.decomposed + " (Apple Health)"])
            // The app row copied under the look-alike id, every other column as installed.
            try db.execute(sql: "CREATE TEMP TABLE lookalike AS SELECT * FROM apps WHERE id = ?", arguments: [Self.keep])
            try db.execute(sql: "UPDATE lookalike SET id = ?", arguments: [Self.kelvin])
            try db.execute(sql: "INSERT INTO apps SELECT * FROM lookalike")
            let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM sources WHERE bundle_identifier LIKE '@import/Apple Health/Caf%'")
            #expect(rows == 2)
        }
        try store.close()

        try healthd.start()
        for arguments in [["sources", "list"], ["sources", "list", "stepCount"], ["apps", "list"], ["apps", "storage"]] {
            let result = try await healthd.healthctl(arguments)
            #expect(result.status == 0, "\(arguments): \(result)\n\(healthd.log)")
        }
        let listed = try await healthd.healthctl(["sources", "list"])
        #expect(Self.cafeLines(listed).count == 1, "\(listed.stdout)")
        #expect(listed.lines.filter { $0.hasPrefix("com.example.") }.count == 1, "\(listed.stdout)")
        #expect(healthd.isRunning, "\(healthd.log)")
        // The look-alike left by the older version is listed with its problem and can be removed.
        let apps = try await healthd.healthctl(["apps", "list"])
        // Spelled, so it does not pass for `com.example.Keep`, and told to go: no manifest can be
        // installed under its id. Removed by the spelling the list shows.
        let spelled = AppIDRule.spelled(Self.kelvin)
        #expect(apps.stdout.contains("\(spelled) needs removing") && apps.stdout.contains(AppIDRule.message), "\(apps)")
        #expect(apps.lines.filter { $0.hasPrefix("com.example.Keep ") }.count == 1, "\(apps)")
        let removed = try await healthd.healthctl(["apps", "remove", spelled, "--keep-data"])
        #expect(removed.status == 0, "\(removed)")
        let after = try await healthd.healthctl(["apps", "list"])
        #expect(!after.stdout.contains(spelled) && after.stdout.contains("com.example.Keep"), "\(after)")
        #expect(healthd.isRunning, "\(healthd.log)")
    }
}
