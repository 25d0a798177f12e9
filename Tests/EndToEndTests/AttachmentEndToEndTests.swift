import Foundation
import Glibc
import HealthModel
import Testing
import TestSupport

/// HKAttachmentStore written as Apple documents it (Tests/EndToEndClient/AttachmentSnippets.swift),
/// run as sandboxed apps against a real healthd, and the user's side through healthctl.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AttachmentEndToEndTests {
    static let vision = HKVisionPrescriptionTypeIdentifier
    let owner = "org.test.attach-owner", reader = "org.test.attach-reader"

    func brokerWithOwner() async throws -> BrokerProcess {
        let broker = try BrokerProcess()
        _ = try await broker.installClient(owner)
        try await broker.set(owner, "share", Self.vision, allowed: true)
        return broker
    }

    static func value(_ result: ProcessResult, _ prefix: String) -> String? {
        result.lines.last { $0.hasPrefix(prefix + " ") }.map { String($0.dropFirst(prefix.count + 1)) }
    }

    struct LoggedAccess: Decodable {
        let app: String?
        let action: String
        let types: [String]
        let count: Int
    }

    /// developer.apple.com/documentation/healthkit/hkattachmentstore/addattachment(to:name:contenttype:url:metadata:)
    /// ("You can add more than one attachment to the specified object"; the url "must be a local
    /// file url"), …/hkattachment, …/hkattachmentdatareader (`data` and `bytes`),
    /// …/getdata(for:completion:) and …/streamdata(for:datahandler:) (chunks, the last with done
    /// true): a 300,000-byte file (two wire chunks) comes back byte for byte by every read. Then
    /// the user lists it, saves it to a 0600 file and deletes it with healthctl, and the access
    /// log holds the app's add and reads and the user's read and delete.
    @Test func anAttachmentRoundTripsAsAppleDocumentsIt() async throws {
        let broker = try await brokerWithOwner()
        let result = try await broker.runApp(owner, ["attachment-snippet", "round-trip", "300000"])
        #expect(result.okValue == "1 300000 true true true true 2 true My_prescription com.adobe.pdf 1.0 true", "\(result)")
        guard let object = Self.value(result, "object"), let attachment = Self.value(result, "attachment") else {
            Issue.record("no object or attachment printed: \(result)")
            return
        }
        let listed = try await broker.healthctl(["attachments", "list", object])
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.stdout.contains(attachment.lowercased()) && listed.stdout.contains("300000 bytes")
                && listed.stdout.contains("com.adobe.pdf") && listed.stdout.contains("My prescription"), "\(listed)")

        let directory = broker.root + "/saved-attachments"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/saved.pdf"
        let saved = try await broker.healthctl(["attachments", "save", object, attachment, file])
        #expect(saved.status == 0, "\(saved)")
        let bytes = FileManager.default.contents(atPath: file) ?? Data()
        #expect(bytes == Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }))
        var status = stat()
        #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600, "mode \(String(status.st_mode & 0o777, radix: 8))")

        let deleted = try await broker.healthctl(["attachments", "delete", object, attachment])
        #expect(deleted.status == 0, "\(deleted)")
        #expect(try await broker.healthctl(["attachments", "list", object]).stdout.contains("No attachments"))
        let missing = try await broker.healthctl(["attachments", "save", object, attachment, directory + "/gone.pdf"])
        #expect(missing.status != 0 && !FileManager.default.fileExists(atPath: directory + "/gone.pdf"), "\(missing)")

        let log = try await broker.healthctl(["log", "--json"])
        let entries = try log.stdout.split(separator: "\n").map { try JSONDecoder().decode(LoggedAccess.self, from: Data($0.utf8)) }
        let attachmentEntries = entries.filter { $0.types == [Self.vision] }
        #expect(attachmentEntries.contains { $0.app == owner && $0.action == "write" && $0.count == 1 }, "\(log.stdout)")
        #expect(attachmentEntries.contains { $0.app == owner && $0.action == "read" }, "\(log.stdout)")
        #expect(attachmentEntries.contains { $0.app == nil && $0.action == "read" }, "\(log.stdout)")
        #expect(attachmentEntries.contains { $0.app == nil && $0.action == "delete" && $0.count == 1 }, "\(log.stdout)")
    }

    /// One input varied at a time: every refusal is errorInvalidArgument (3) with the reason
    /// named, before anything is stored; a 0-byte file and one of exactly 16 MiB are accepted and
    /// read back whole, and only those two are listed.
    @Test func refusalsAndExtremes() async throws {
        let broker = try await brokerWithOwner()
        try await broker.set(owner, "share", HKQuantityTypeIdentifier.stepCount.rawValue, allowed: true)
        let result = try await broker.runApp(owner, ["attachment-snippet", "refusals"], timeout: 300)
        #expect(result.okValue == "nul:3 empty:3 slash:3 over:3/limit directory:3/directory missing:3/missing unreadable:3/denied"
                + " remote:3 steps:3 zero:0 limit:true listed:2", "\(result)")
    }

    /// Adding needs share permission for the prescription type: denied, the add fails with
    /// errorAuthorizationDenied (4) and nothing is stored.
    @Test func addingNeedsSharePermission() async throws {
        let broker = try await brokerWithOwner()
        let saved = try await broker.runApp(owner, ["snippet", "vision-save"])
        #expect(saved.okValue == "saved", "\(saved)")
        try await broker.set(owner, "share", Self.vision, allowed: false)
        #expect(try await broker.runApp(owner, ["attachment-snippet", "attach-existing"]).okValue == "attached:0 failed:4,4,4")
        #expect(try await broker.runApp(owner, ["attachment-snippet", "visible"]).okValue == "3 ;; true")
        try await broker.set(owner, "share", Self.vision, allowed: true)
        #expect(try await broker.runApp(owner, ["attachment-snippet", "attach-existing"]).okValue == "attached:3 failed:")
        #expect(try await broker.runApp(owner, ["attachment-snippet", "visible"]).okValue == "3 10;10;10 true")
    }

    /// An attachment is visible exactly when its object is: another app sees nothing, then —
    /// granted the prescription through the per-object flow — its attachment, whole, but may not
    /// remove it (without share permission: errorAuthorizationNotDetermined; with it:
    /// errorAuthorizationDenied, it is not the app's own); once the grant is revoked it sees
    /// nothing again.
    @Test func anAttachmentIsVisibleExactlyWhenItsObjectIs() async throws {
        let broker = try await brokerWithOwner()
        let added = try await broker.runApp(owner, ["attachment-snippet", "round-trip", "5000"])
        #expect(added.okValue?.hasPrefix("1 5000 true") == true, "\(added)")
        _ = try await broker.installClient(reader)
        #expect(try await broker.runApp(reader, ["attachment-snippet", "visible"]).okValue == "0  true")

        async let asked = broker.runApp(reader, ["snippet", "vision-per-object"])
        let listing = try await broker.pendingObjectRequests()
        let lines = listing.split(separator: "\n").map(String.init)
        let requestID = lines.first { $0.hasPrefix("Request ") }.flatMap { $0.dropFirst("Request ".count).split(separator: ":").first }
        let candidate = lines.first { $0.hasPrefix("  ") }?.split(separator: " ").first
        guard let requestID, let candidate else {
            Issue.record("no request or candidate: \(listing)")
            return
        }
        #expect(try await broker.healthctl(["object-requests", "--answer", String(requestID), "--allow", String(candidate)]).status == 0)
        let granted = try await asked
        #expect(granted.okValue == "1 HKVisionPrescription", "\(granted)")
        #expect(try await broker.runApp(reader, ["attachment-snippet", "visible"]).okValue == "1 5000 true")
        // Removing needs share permission first (not determined: 5), then the app's own attachment (4).
        #expect(try await broker.runApp(reader, ["attachment-snippet", "remove-all"]).okValue == "removed:0 failed:5")
        try await broker.set(reader, "share", Self.vision, allowed: true)
        let removal = try await broker.runApp(reader, ["attachment-snippet", "remove-all"])
        #expect(removal.okValue == "removed:0 failed:4", "\(removal)")

        #expect(try await broker.healthctl(["object-grants", reader, "--revoke-all"]).status == 0)
        #expect(try await broker.runApp(reader, ["attachment-snippet", "visible"]).okValue == "0  true")
        #expect(try await broker.runApp(owner, ["attachment-snippet", "remove-all"]).okValue == "removed:1 failed:")
    }

    /// An app killed while it uploads 16 MiB leaves no partial attachment: whatever is listed
    /// afterwards reads back whole, and the app can add again at once.
    @Test func anAppKilledMidAddLeavesNothingHalfWritten() async throws {
        let broker = try await brokerWithOwner()
        for timeout in [0.5, 1.0, 2.0] {
            _ = try await broker.runApp(owner, ["attachment-snippet", "round-trip", "\(16 * 1024 * 1024)"], timeout: timeout)
            let visible = try await broker.runApp(owner, ["attachment-snippet", "visible"])
            #expect(visible.okValue?.hasSuffix(" true") == true, "\(visible)")
            // "COUNT groups true": each group the sizes of one prescription's attachments.
            let fields = visible.okValue?.components(separatedBy: " ") ?? []
            let sizes = fields.count == 3 ? fields[1].split(whereSeparator: { $0 == ";" || $0 == "," }) : ["unparsed"]
            #expect(sizes.allSatisfy { $0 == "16777216" }, "a partial attachment is listed: \(String(describing: visible.okValue))")
        }
        let again = try await broker.runApp(owner, ["attachment-snippet", "round-trip", "10"])
        #expect(again.okValue?.hasPrefix("1 10 true") == true, "\(again)")
    }
}
