import Foundation
import GRDB
import HealthStore
import Testing
import TestSupport
import ZIPFoundation

/// SMART Health Card files built to hurt healthd or the user's listings, through a real healthd
/// and healthctl (red team, session 22): a date that crashed ICU (healthd died), text escapes that
/// were stored and then broke every listing or forged its lines, and 64 large cards whose answers
/// outgrew a frame. Each import is refused or stored with every later call working — never
/// "stored, then every listing fails" — and a store an earlier import left broken is usable again.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HostileCardEndToEndTests {
    static let app = "org.test.vcr-hostile"

    /// A card with one Immunization per name, dated `date`, raw-DEFLATE-compressed (zlib, through
    /// ZIPFoundation) as issuers write them: 64 large cards fit the 1 MiB file bound only so.
    static func card(names: [String], date: String, subject: String = "P") throws -> String {
        let entries: [[String: Any]] = [["resource": ["resourceType": "Patient", "name": [["text": subject]], "birthDate": "1970-01-01"]]]
            + names.map { ["resource": ["resourceType": "Immunization", "vaccineCode": ["text": $0], "occurrenceDateTime": date]] }
        let payload = try JSONSerialization.data(withJSONObject: [
            "iss": "https://example.org/i", "nbf": 1_600_000_000,
            "vc": ["type": ["https://smarthealth.cards#health-card", "https://smarthealth.cards#immunization"],
                   "credentialSubject": ["fhirBundle": ["entry": entries]]],
        ] as [String: Any])
        var compressed = Data()
        _ = try Data.compress(size: Int64(payload.count), bufferSize: 64 << 10, provider: { position, size in
            payload.subdata(in: Int(position)..<Int(position) + size)
        }, consumer: { compressed.append($0) })
        return TestCards.header + "." + TestCards.b64url([UInt8](compressed)) + "." + TestCards.b64url([UInt8](repeating: 1, count: 64))
    }

    static func write(_ cards: [String], in root: String) throws -> String {
        let path = root + "/cards-\(UUID().uuidString.prefix(8)).smart-health-card"
        try Data(TestCards.file(cards)).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func today(minus days: Int) -> String {
        let date = Date().addingTimeInterval(-Double(days) * 86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// A fraction of 35 digits made ICU trap (SIGFPE) and healthd die before any signature check.
    /// Now the date is not a date (the record's relevant date is its issue date): imported, and
    /// healthd serves on.
    @Test func aCardWhoseDateCrashedICUIsImportedAndHealthdKeepsServing() async throws {
        let broker = try BrokerProcess()
        defer { broker.stop() }
        let date = "2020-01-01T00:00:00." + String(repeating: "0", count: 34) + "1Z"
        let path = try Self.write([TestCards.jws(payload: TestCards.payload(name: "Fraction Person", date: date))], in: broker.root)
        let imported = try await broker.healthctl(["verifiable-records", "import", path])
        #expect(imported.status == 0 && imported.stdout.contains("Imported 1 verifiable record"), "\(imported)\n\(broker.log)")
        #expect(broker.isRunning, "\(broker.log)")
        let listing = try await broker.healthctl(["verifiable-records", "list"])
        #expect(listing.status == 0 && listing.stdout.contains("Fraction Person"), "\(listing)")
    }

    /// `\u0000` and a type with a newline and an escape sequence: refused naming the field, nothing
    /// stored, and the listing still works.
    @Test func aCardWithControlTextIsRefusedBeforeAnythingIsStored() async throws {
        let broker = try BrokerProcess()
        defer { broker.stop() }
        let cards = [
            TestCards.jws(payload: TestCards.payload(types: ["https://smarthealth.cards#health-card\\u0000"], name: "Nul\\u0000Name")),
            TestCards.jws(payload: TestCards.payload(types: ["https://smarthealth.cards#health-card\\n    issuer https://forged, "
                                                             + "signature verified with the issuer keys given at import\\u001b[0m"])),
        ]
        for card in cards {
            let refused = try await broker.healthctl(["verifiable-records", "import", try Self.write([card], in: broker.root)])
            #expect(refused.status != 0 && refused.stderr.contains("(at vc.") && refused.stderr.contains("holds the character U+"),
                    "\(refused)")
        }
        let listing = try await broker.healthctl(["verifiable-records", "list"])
        #expect(listing.status == 0 && listing.stdout == "No verifiable clinical records.\n", "\(listing)")
    }

    /// The red team's 64 cards of 255 names of about 505 bytes (an 8.5 MB answer): refused, with
    /// the bound. 64 cards at the bound (16 KiB of names each): stored, and the import's answer,
    /// the listing (several frames), `object-requests` while an app's query waits, and the app's
    /// answer all work.
    @Test func sixtyFourLargeCardsAreRefusedOrStoredWithEveryLaterCallWorking() async throws {
        let broker = try BrokerProcess()
        defer { broker.stop() }
        try await broker.installHealthRecordsClient(Self.app)
        let recent = Self.today(minus: 10)
        let tooLarge = try (0..<64).map { card in
            try Self.card(names: (0..<255).map { "\(card)-\($0)-" + String(repeating: "V", count: 500) }, date: recent)
        }
        let refused = try await broker.healthctl(["verifiable-records", "import", try Self.write(tooLarge, in: broker.root)])
        #expect(refused.status != 0 && refused.stderr.contains("more than 16384 bytes together"), "\(refused)")
        #expect(try await broker.healthctl(["verifiable-records", "list"]).stdout == "No verifiable clinical records.\n")

        let atBound = try (0..<64).map { card in
            try Self.card(names: (0..<32).map { String(format: "%02d-%02d-", card, $0) + String(repeating: "V", count: 506) },
                          date: recent, subject: "Subject \(card)")
        }
        let imported = try await broker.healthctl(["verifiable-records", "import", try Self.write(atBound, in: broker.root)])
        #expect(imported.status == 0 && imported.stdout.hasPrefix("Imported 64 verifiable records"), "\(imported.stderr)")
        let listing = try await broker.healthctl(["verifiable-records", "list"])
        #expect(listing.status == 0 && (0..<64).allSatisfy { listing.stdout.contains("Subject \($0)  ") }, "\(listing.stderr)")

        async let asked = broker.runApp(Self.app, ["snippet", "vcr-immunization-6-months"], timeout: 180)
        var offer: (requestID: String, documents: [UUID])?
        let deadline = Date().addingTimeInterval(90)
        while offer == nil, Date() < deadline {
            offer = try await DocumentConsentEndToEndTests.pendingOffers(in: broker, apps: [Self.app])[Self.app]
            if offer == nil { try await Task.sleep(for: .milliseconds(200)) }
        }
        let pending = try #require(offer)
        #expect(pending.documents.count == 64)
        let requests = try await broker.healthctl(["object-requests"])
        #expect(requests.status == 0 && (0..<64).allSatisfy { requests.stdout.contains("Subject \($0)  ") }, "\(requests.stderr)")
        let answer = try await broker.healthctl(["object-requests", "--answer", pending.requestID,
                                                 "--allow", pending.documents.map { $0.uuidString.lowercased() }.joined(separator: ",")])
        #expect(answer.status == 0, "\(answer)")
        let result = try await asked
        #expect(result.okValue == "64", "\(result)")
    }

    /// A store an earlier import left broken (before the card reader checked text and sizes): a
    /// record whose type holds a newline and an escape sequence, whose name holds ESC and whose
    /// item name holds NUL (JSON columns keep it; a plain text column is read up to it), and 64
    /// records of 128 KiB of item names. The listing shows each record on its own lines, the bad
    /// text escaped, and the records can be deleted.
    @Test func aStoreLeftBrokenByAnEarlierImportIsUsableAgain() async throws {
        let healthd = try RestartableHealthd()
        defer { healthd.stop(); try? FileManager.default.removeItem(atPath: healthd.root) }
        try healthd.start()
        let path = try Self.write([TestCards.jws(payload: TestCards.payload(name: "Broken Person"))], in: healthd.root)
        #expect(try await healthd.healthctl(["verifiable-records", "import", path]).status == 0)
        healthd.stop()
        let huge = try String(decoding: JSONEncoder().encode((0..<255).map { "\($0)-" + String(repeating: "V", count: 505) }), as: UTF8.self)
        try Self.breakStore(healthd.storeDirectory, itemNames: huge)
        try healthd.start()
        let listing = try await healthctlOK(healthd, ["verifiable-records", "list"])
        let lines = listing.split(separator: "\n", omittingEmptySubsequences: false)
        // Escaped as Swift writes them (`\\0`, `\\n`, `\\u{1B}`), by the one escaping function.
        let broken = try #require(lines.firstIndex { $0.contains(#"Broken\u{1B}[31mPerson"#) }, "\(listing.prefix(2_000))")
        #expect(lines[broken].contains(#"#health-card\n    issuer https://forged, signature verified\u{1B}[0m"#), "\(lines[broken])")
        #expect(lines[broken + 2] == #"    Vaccine\0X"#, "\(lines[broken + 2])")
        #expect(!listing.contains("\u{1B}") && lines.filter { $0.hasPrefix("    issuer https://forged") }.isEmpty)
        #expect((0..<64).allSatisfy { listing.contains("Huge \($0)  ") })
        let uuids = lines.compactMap { $0.split(separator: " ").first.flatMap { UUID(uuidString: String($0)) } }
        #expect(uuids.count == 65)
        let deleted = try await healthctlOK(healthd, ["verifiable-records", "delete"] + uuids.map(\.uuidString))
        #expect(deleted.contains("Deleted 65"))
        #expect(try await healthctlOK(healthd, ["verifiable-records", "list"]) == "No verifiable clinical records.\n")
    }

    /// What main's import stored (a card of control text; 64 records of 128 KiB of names and a
    /// 200 KB JWS), written into the stopped store directly: the reader no longer makes either.
    static func breakStore(_ directory: String, itemNames: String) throws {
        let store = try EncryptedDatabase.open(directory: directory)
        try store.writer.write { db in
            try db.execute(sql: """
                UPDATE verifiable_records SET subject_name = 'Broken' || char(27) || '[31mPerson',
                    record_types = ?, item_names = ? WHERE subject_name = 'Broken Person'
                """, arguments: [##"["#health-card\n    issuer https://forged, signature verified\u001b[0m"]"##, #"["Vaccine\u0000X"]"#])
            for index in 0..<64 {
                try db.execute(sql: """
                    INSERT INTO verifiable_records (uuid, source_type, record_types, issuer, subject_name, subject_birth_date,
                        issued_us, relevant_us, expiration_us, item_names, jws, verification, imported_us)
                    SELECT ?, source_type, '["https://smarthealth.cards#health-card"]', issuer, ?, subject_birth_date, issued_us,
                        relevant_us, expiration_us, ?, randomblob(200000), verification, imported_us FROM verifiable_records LIMIT 1
                    """, arguments: [UUID(), "Huge \(index)", itemNames])
            }
        }
        try store.close()
    }

    func healthctlOK(_ healthd: RestartableHealthd, _ arguments: [String]) async throws -> String {
        let result = try await healthd.healthctl(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }
}
