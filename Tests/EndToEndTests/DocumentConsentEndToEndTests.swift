import Foundation
import HealthModel
import Testing
import TestSupport

/// Per-document consent for CDA documents, through a real healthd, sandboxed apps and healthctl.
/// developer.apple.com/documentation/healthkit/hkcdadocumentsample/document: "The user is asked to
/// authorize each CDA document the first time that document is returned by an HKDocumentQuery
/// query. The user can change the access permissions in the Health app." Here the query offers
/// the documents the user has not decided on (`healthctl object-requests`) and answers at once
/// with those already allowed; every read path then sees the app's own documents and the allowed
/// ones, and a document not allowed is absent (DESIGN.md §7.3).
@Suite(.serialized, .timeLimit(.minutes(10))) struct DocumentConsentEndToEndTests {
    static let cda = HKDocumentTypeIdentifier.CDA.rawValue

    @Test func eachDocumentIsOfferedOnceAndOnlyAllowedOnesAreRead() async throws {
        let broker = try BrokerProcess()
        let saver = try await broker.installClient("org.test.consent-saver")
        try await broker.set(saver, "share", Self.cda, allowed: true)
        #expect(try await broker.runApp(saver, ["snippet", "cda-save", "3"]).okValue == "saved 3 Visit 3")
        let reader = try await broker.installClient("org.test.consent-reader")
        try await broker.set(reader, "read", Self.cda, allowed: true)
        let stranger = try await broker.installClient("org.test.consent-stranger")
        try await broker.set(stranger, "read", Self.cda, allowed: false)

        // Before the user answers: nothing of the saver's (the query does not wait).
        #expect(try await broker.runApp(stranger, ["snippet", "cda-document-query-no-data"]).okValue == "0 0")
        #expect(try await broker.runApp(reader, ["snippet", "cda-document-query-no-data"]).okValue == "0 0")
        let offered = try await Self.offer(to: reader, in: broker)
        #expect(offered.documents.count == 3, "\(offered)")
        // The user tells the documents apart by their header fields (healthctl reads them by UUID).
        let listing = try await broker.healthctl(["object-requests"])
        #expect(["Visit 1", "Visit 2", "Visit 3"].allSatisfy { listing.stdout.contains("CDA document  title \($0);") }, "\(listing)")
        // An app whose read permission is denied is offered nothing.
        #expect(try await Self.pendingOffers(in: broker, apps: [reader, stranger]).keys.sorted() == [reader])

        let allowed = Array(offered.documents.prefix(2))
        let answer = try await broker.healthctl(["object-requests", "--answer", offered.requestID,
                                                 "--allow", allowed.map { $0.uuidString.lowercased() }.joined(separator: ",")])
        #expect(answer.status == 0, "\(answer)")
        let read = try await broker.runApp(reader, ["snippet", "cda-document-query-no-data"])
        #expect(read.okValue?.hasPrefix("2 1 ") == true, "\(read)")
        // HKSampleQuery sees the same two (document nil, as Apple's).
        #expect(try await broker.runApp(reader, ["snippet", "cda-sample-query"]).okValue == "2 true 0")
        #expect(try await broker.runApp(stranger, ["snippet", "cda-sample-query"]).okValue == "0 true 0")

        // A new document is offered alone: neither the allowed nor the denied one again.
        #expect(try await broker.runApp(saver, ["snippet", "cda-save", "1"]).okValue == "saved 1 Visit 1")
        #expect(try await broker.runApp(reader, ["snippet", "cda-document-query-no-data"]).okValue?.hasPrefix("2 1 ") == true)
        let second = try await Self.offer(to: reader, in: broker)
        #expect(second.documents.count == 1 && !offered.documents.contains(second.documents[0]), "\(second)")
        #expect(try await broker.healthctl(["object-requests", "--answer", second.requestID]).status == 0)
        #expect(try await broker.runApp(reader, ["snippet", "cda-sample-query"]).okValue == "2 true 0")

        // A data window on the documents' read grant is refused: the user's picks decide, and a
        // window would silently hide nothing. healthctl exits 65 (EX_DATAERR) naming the fix, and
        // the grant stays as it was — alone or beside a type a window does apply to.
        for types in [[Self.cda], [HKQuantityTypeIdentifier.stepCount.rawValue, Self.cda]] {
            let windowed = try await broker.healthctl(["grant", reader, "read"] + types + ["--window", "30d"])
            #expect(windowed.status == 65, "\(types): \(windowed)")
            #expect(windowed.stderr.contains("documents are allowed one by one") && windowed.stderr.contains("healthctl object-grants"),
                    "\(types): \(windowed)")
            #expect(try await broker.runApp(reader, ["snippet", "cda-sample-query"]).okValue == "2 true 0", "\(types)")
        }

        // The type's read permission revoked: the allowed documents go too (own only).
        try await broker.set(reader, "read", Self.cda, allowed: false)
        #expect(try await broker.runApp(reader, ["snippet", "cda-sample-query"]).okValue == "0 true 0")
    }

    /// The pending offer filed for `app` (the query's reply does not wait for it): its request id
    /// and the documents it offers, polled for at most 10 s.
    static func offer(to app: String, in broker: BrokerProcess) async throws -> (requestID: String, documents: [UUID]) {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let found = try await pendingOffers(in: broker, apps: [app])[app] { return found }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw OfferNotFiled(app: app)
    }

    struct OfferNotFiled: Error { let app: String }

    /// `healthctl object-requests` for `apps`: app → (request id, offered UUIDs).
    static func pendingOffers(in broker: BrokerProcess, apps: [String]) async throws -> [String: (requestID: String, documents: [UUID])] {
        let listing = try await broker.healthctl(["object-requests"])
        var offers: [String: (requestID: String, documents: [UUID])] = [:]
        var current: String?
        for line in listing.stdout.split(separator: "\n") {
            if line.hasPrefix("Request ") {
                current = apps.first { line.contains("(\($0))") }
                if let current, let id = line.dropFirst("Request ".count).split(separator: ":").first { offers[current] = (String(id), []) }
            } else if let current, let uuid = line.split(separator: " ").first.flatMap({ UUID(uuidString: String($0)) }) {
                offers[current]?.documents.append(uuid)
            }
        }
        return offers
    }
}
