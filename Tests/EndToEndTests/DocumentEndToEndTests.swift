import Foundation
import HealthModel
import Testing
import TestSupport

/// CDA documents across apps, the lock and healthctl, through a real healthd.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DocumentEndToEndTests {
    static let cda = HKDocumentTypeIdentifier.CDA.rawValue

    /// developer.apple.com/documentation/healthkit/protecting-user-privacy and …/hkcdadocumentsample/
    /// document: an app sees another app's document only with read permission for the CDA type
    /// and the user's consent to that document, asked when a document query first finds it
    /// (`DocumentConsentEndToEndTests`). The reader sees the saver's document once the user
    /// allowed it; an app without read permission sees none (as if the store held only its own).
    @Test func anotherAppReadsDocumentsOnlyWithReadPermission() async throws {
        let broker = try BrokerProcess()
        let saver = try await broker.installClient("org.test.cda-saver")
        try await broker.set(saver, "share", Self.cda, allowed: true)
        #expect(try await broker.runApp(saver, ["snippet", "cda-save"]).okValue == "saved 1 Visit 1")
        let reader = try await broker.installClient("org.test.cda-reader")
        try await broker.set(reader, "read", Self.cda, allowed: true)
        let stranger = try await broker.installClient("org.test.cda-stranger")
        #expect(try await broker.runApp(reader, ["snippet", "cda-document-query-no-data"]).okValue == "0 0")
        let offer = try await DocumentConsentEndToEndTests.offer(to: reader, in: broker)
        let answer = try await broker.healthctl(["object-requests", "--answer", offer.requestID,
                                                 "--allow", offer.documents.map { $0.uuidString.lowercased() }.joined(separator: ",")])
        #expect(answer.status == 0 && offer.documents.count == 1, "\(answer)")
        let read = try await broker.runApp(reader, ["snippet", "cda-document-query-no-data"])
        #expect(read.okValue == "1 1 Visit 1|Jane Doe|Ada Lovelace|Good Health Clinic nil", "\(read)")
        let hidden = try await broker.runApp(stranger, ["snippet", "cda-document-query-no-data"])
        #expect(hidden.okValue == "0 0", "\(hidden)")
    }

    /// While the store is locked a document save is journaled like any save (DESIGN §7.8) and
    /// arrives whole at unlock.
    @Test func aDocumentSavedWhileLockedArrivesAtUnlock() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.cda-locked")
        try await broker.set(app, "share", Self.cda, allowed: true)
        try await broker.set(app, "read", Self.cda, allowed: true)
        #expect(try await broker.healthctl(["lock"]).status == 0)
        #expect(try await broker.runApp(app, ["snippet", "cda-save"]).okValue == "saved 1 Visit 1")
        let unlock = try await broker.healthctl(["unlock"])
        #expect(unlock.status == 0 && unlock.stdout.contains("merged"), "the save was journaled: \(unlock)")
        let read = try await broker.runApp(app, ["snippet", "cda-document-query-no-data"])
        #expect(read.okValue == "1 1 Visit 1|Jane Doe|Ada Lovelace|Good Health Clinic nil", "\(read)")
    }

    /// An HKAnchoredObjectQuery over documents larger together than one frame: healthd's change
    /// feed sends them two to a batch (`WireLimits.samplesPerBatch(types:)`), and the initial
    /// delivery holds all five.
    @Test func anAnchoredQueryDeliversLargeDocumentsInFrameSizedBatches() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.cda-anchored")
        try await broker.set(app, "share", Self.cda, allowed: true)
        try await broker.set(app, "read", Self.cda, allowed: true)
        let saved = try await broker.runApp(app, ["snippet", "cda-save", "5", "900000"])
        #expect(saved.okValue == "saved 5 Visit 5", "\(saved)")
        let anchored = try await broker.runApp(app, ["anchored", Self.cda])
        #expect(anchored.okValue == "1" && anchored.stdout.contains("delivery initial 5 0"), "\(anchored)")
    }

    /// healthctl shows a document's size and header fields, --json carries them, and the Apple
    /// export writes the document byte for byte under cda-documents/, which an import into an
    /// empty store reads back; deleting it from the app removes it.
    @Test func healthctlShowsExportsAndTheAppDeletesADocument() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.cda-display")
        try await broker.set(app, "share", Self.cda, allowed: true)
        try await broker.set(app, "read", Self.cda, allowed: true)
        #expect(try await broker.runApp(app, ["snippet", "cda-save"]).okValue == "saved 1 Visit 1")

        let listing = try await broker.healthctl(["samples", "CDA"])
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.stdout.contains("bytes, title Visit 1; patient Jane Doe; author Ada Lovelace; custodian Good Health Clinic"),
                "\(listing)")
        let json = try await broker.healthctl(["samples", "CDA", "--json"])
        #expect(json.stdout.contains(#""title":"Visit 1""#) && json.stdout.contains(#""custodianName":"Good Health Clinic""#)
                && json.stdout.contains(#""unit":"bytes""#), "\(json)")

        let zip = broker.root + "/export.zip"
        let export = try await broker.healthctl(["export", zip])
        #expect(export.status == 0, "\(export)")
        let listed = try await unzipListing(zip)
        #expect(listed.contains("apple_health_export/cda-documents/") && listed.contains(".xml"), "\(listed)")
        // Its `CDADocument` element names the file, so importing the export gives it back.
        let copy = try BrokerProcess()
        let imported = try await copy.healthctl(["import", zip, "--characteristics", "no"])
        #expect(imported.status == 0 && imported.stdout.contains(", 0 refused"), "\(imported)")
        let copied = try await copy.healthctl(["samples", "CDA", "--json"])
        #expect(copied.stdout.contains(#""title":"Visit 1""#) && copied.stdout.contains(#""custodianName":"Good Health Clinic""#),
                "\(copied)")

        #expect(try await broker.runApp(app, ["snippet", "cda-delete"]).okValue == "deleted 1")
        let after = try await broker.runApp(app, ["snippet", "cda-document-query-no-data"])
        #expect(after.okValue == "0 0", "\(after)")
    }

    private func unzipListing(_ path: String) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-l", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
