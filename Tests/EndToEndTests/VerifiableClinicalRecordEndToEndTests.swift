import Foundation
import HealthModel
import Testing
import TestSupport

/// Verifiable clinical records (SMART Health Cards) through a real healthd, a real sandboxed app
/// and healthctl answering the prompt.
///
/// Apple's rules asserted here:
/// - "A query for one-time access to a SMART Health Card" — HKVerifiableClinicalRecordQuery
///   (developer.apple.com/documentation/healthkit/hkverifiableclinicalrecordquery): the user is
///   asked each time; the handler gets the records the user selected.
/// - `predicateForVerifiableClinicalRecords(withRelevantDateWithin:)` "matches
///   HKVerifiableClinicalRecord instances that have a relevantDate property within the specified
///   date interval" (…/hkquery/predicateforverifiableclinicalrecords(withrelevantdatewithin:)).
/// - `HKError.Code.errorUserCanceled`: "The user canceled the operation"
///   (…/hkerror/code/errorusercanceled): the user shares nothing.
///
/// Privacy (DESIGN.md §7): what the app receives is the same whether or not the user holds other
/// records — of another type, outside the interval, or matching but not chosen (twin worlds, the
/// same selection, byte-for-byte the same output but for the UUIDs each store draws at import).
@Suite(.serialized, .timeLimit(.minutes(10))) struct VerifiableClinicalRecordEndToEndTests {
    static let app = "org.test.vcr-reader"

    static func day(_ daysAgo: Int) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter.string(from: Date().addingTimeInterval(-Double(daysAgo) * 86_400))
    }

    /// The card the user shares, fixed so both worlds import the same bytes.
    static let sharedCard = TestCards.jws(payload: TestCards.payload(name: "Shared Person", date: day(30),
                                                                                 vaccine: "Shared vaccine", issued: 1_700_000_000))
    /// What only the richer world also holds: another matching card (offered, not chosen), a
    /// laboratory card (another type) and an immunization outside the six months.
    static let otherCards = [
        TestCards.jws(payload: TestCards.payload(name: "Other Match", date: day(10), vaccine: "Other vaccine")),
        TestCards.jws(payload: TestCards.payload(types: ["https://smarthealth.cards#health-card",
                                                                     "https://smarthealth.cards#laboratory"],
                                                             name: "Lab Result", date: day(5), vaccine: "PCR")),
        TestCards.jws(payload: TestCards.payload(name: "Old Shot", date: day(400), vaccine: "Old vaccine")),
    ]

    struct World {
        let broker: BrokerProcess
        /// healthctl's UUID for each imported card, by subject name.
        let uuids: [String: UUID]
    }

    static func world(withOtherRecords: Bool) async throws -> World {
        let broker = try BrokerProcess()
        try await broker.installHealthRecordsClient(app)
        let cards = [sharedCard] + (withOtherRecords ? otherCards : [])
        let path = broker.root + "/cards.smart-health-card"
        try Data(TestCards.file(cards)).write(to: URL(fileURLWithPath: path))
        let imported = try await broker.healthctl(["verifiable-records", "import", path])
        #expect(imported.status == 0 && imported.stdout.contains("Imported \(cards.count) verifiable record"), "\(imported)")
        let listing = try await broker.healthctl(["verifiable-records", "list"])
        var uuids: [String: UUID] = [:]
        for line in listing.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let first = fields.first, let uuid = UUID(uuidString: String(first)) else { continue }
            for name in ["Shared Person", "Other Match", "Lab Result", "Old Shot"] where line.contains(name) { uuids[name] = uuid }
        }
        #expect(uuids.count == cards.count, "\(listing)")
        #expect(listing.stdout.contains("signature not verified (no issuer keys given)"), "\(listing)")
        return World(broker: broker, uuids: uuids)
    }

    /// Runs `snippet` in the app, waits for its request in `healthctl object-requests`, answers it
    /// allowing `allow` (subject names), and returns the app's output and the UUIDs offered.
    static func ask(_ world: World, snippet: String, allow: [String]) async throws -> (result: ProcessResult, offered: Set<UUID>) {
        async let asked = world.broker.runApp(app, ["snippet", snippet], timeout: 120)
        let offer = try await pendingRequest(in: world.broker)
        let allowed = allow.compactMap { world.uuids[$0]?.uuidString.lowercased() }
        let answer = try await world.broker.healthctl(["object-requests", "--answer", offer.requestID]
                                                      + (allowed.isEmpty ? [] : ["--allow", allowed.joined(separator: ",")]))
        #expect(answer.status == 0, "\(answer)")
        return (try await asked, Set(offer.documents))
    }

    /// The app's request in `healthctl object-requests`, polled for up to 90 s: the app is a
    /// sandboxed process whose start takes seconds on a loaded machine (10 s, the document
    /// offers' wait, was too short beside a parallel suite).
    static func pendingRequest(in broker: BrokerProcess) async throws -> (requestID: String, documents: [UUID]) {
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline {
            if let found = try await DocumentConsentEndToEndTests.pendingOffers(in: broker, apps: [app])[app] { return found }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw DocumentConsentEndToEndTests.OfferNotFiled(app: app)
    }

    @Test func theAppReceivesExactlyWhatTheUserSharedWhateverElseIsStored() async throws {
        let plain = try await Self.world(withOtherRecords: false)
        defer { plain.broker.stop() }
        let rich = try await Self.world(withOtherRecords: true)
        defer { rich.broker.stop() }

        let fromPlain = try await Self.ask(plain, snippet: "vcr-immunization-6-months", allow: ["Shared Person"])
        let fromRich = try await Self.ask(rich, snippet: "vcr-immunization-6-months", allow: ["Shared Person"])
        // The user was offered every record the query matches, and only those.
        #expect(fromPlain.offered == [plain.uuids["Shared Person"]])
        #expect(fromRich.offered == Set([rich.uuids["Shared Person"], rich.uuids["Other Match"]].compactMap { $0 }))
        // The app got the one record, with the card's fields and its JWS as issued.
        #expect(fromPlain.result.okValue == "1", "\(fromPlain.result)")
        let line = fromPlain.result.lines.first { $0.hasPrefix("record ") } ?? ""
        #expect(line.hasPrefix("record Shared_Person 1980-5-0 https://smarthealth.cards#health-card,https://smarthealth.cards#immunization "
                               + "https://smarthealth.cards#immunization SMARTHealthCard https://issuer.example.org 1700000000 "), "\(line)")
        #expect(line.contains(" Shared_vaccine \(Self.sharedCard.utf8.count) \(Data(Self.sharedCard.utf8).base64EncodedString()) true HKVerifiableClinicalRecord"),
                "\(line)")
        // Twin worlds: the same bytes to the app.
        #expect(fromPlain.result.stdout == fromRich.result.stdout)

        // One-time: the next query asks again; sharing nothing is errorUserCanceled (7), in both worlds.
        let cancelledPlain = try await Self.ask(plain, snippet: "vcr-descriptor", allow: [])
        let cancelledRich = try await Self.ask(rich, snippet: "vcr-descriptor", allow: [])
        #expect(cancelledPlain.result.errorCode == 7, "\(cancelledPlain.result)")
        #expect(cancelledPlain.result.stdout == cancelledRich.result.stdout)
        // Without the interval the descriptor's query matches the old immunization too, never the lab card.
        #expect(cancelledRich.offered == Set([rich.uuids["Shared Person"], rich.uuids["Other Match"], rich.uuids["Old Shot"]].compactMap { $0 }))

        // Access-logged like other reads: the query, and the user's answer.
        let log = try await rich.broker.healthctl(["log", "list"])
        #expect(log.stdout.contains("verifiable clinical record query: 1 records shared"), "\(log)")
        #expect(log.stdout.contains("records shared"), "\(log)")

        // The user's listing and deletion.
        let deleted = try await rich.broker.healthctl(["verifiable-records", "delete", rich.uuids["Lab Result"]?.uuidString ?? "?"])
        #expect(deleted.status == 0, "\(deleted)")
        #expect(!(try await rich.broker.healthctl(["verifiable-records", "list"])).stdout.contains("Lab Result"))
    }

    /// healthd refuses a malformed or oversized card with a message, stores nothing, and stays up.
    @Test func aMalformedCardIsRefusedAndHealthdStaysUp() async throws {
        let world = try await Self.world(withOtherRecords: false)
        defer { world.broker.stop() }
        let bad = world.broker.root + "/bad.smart-health-card"
        for content in [Data("shc:/12345".utf8), Data([0xff, 0xfe, 0x00]), Data(#"{"verifiableCredential":["a.b.c"]}"#.utf8)] {
            try content.write(to: URL(fileURLWithPath: bad))
            let refused = try await world.broker.healthctl(["verifiable-records", "import", bad])
            #expect(refused.status != 0 && !refused.stderr.isEmpty, "\(refused)")
        }
        let listing = try await world.broker.healthctl(["verifiable-records", "list"])
        #expect(listing.status == 0 && listing.stdout.split(separator: "\n").filter { $0.contains("Shared Person") }.count == 1, "\(listing)")
    }
}
