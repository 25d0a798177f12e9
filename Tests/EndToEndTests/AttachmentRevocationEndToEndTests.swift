import Foundation
import HealthModel
import HealthWire
import Testing
import TestSupport

/// An attachment upload to a prescription the app then loses (SECURITY.md, leak channel "an
/// attachment upload to an object the app then loses"), through a real healthd: the answers
/// the app gets for its upload must not change when the prescription it can no longer read is
/// deleted — otherwise polling the upload tells it when that happens.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AttachmentRevocationEndToEndTests {
    static let vision = HKVisionPrescriptionTypeIdentifier
    let owner = "org.test.revoked-owner", reader = "org.test.revoked-reader"

    /// The owner saves a prescription; the reader is granted it through the per-object flow (the
    /// user's answer in healthctl), begins attaching 2 bytes and sends 1. Then the user revokes
    /// the reader's share permission and its per-object grant. The reader's append and finish
    /// answer the same before and after the user deletes the prescription: the answer of an
    /// upload whose object is gone, asked before the share check. Failed before the fix: before
    /// the deletion the append succeeded and the finish was refused for share permission;
    /// after it, both said the upload was not found.
    @Test func anUploadAnswersTheSameWhetherTheLostPrescriptionIsDeletedOrNot() async throws {
        let broker = try BrokerProcess()
        defer { broker.stop() }
        _ = try await broker.installClient(owner)
        try await broker.set(owner, "share", Self.vision, allowed: true)
        let saved = try await broker.runApp(owner, ["attachment-snippet", "round-trip", "10"])
        let printed = saved.lines.last { $0.hasPrefix("object ") }.map { String($0.dropFirst("object ".count)) }
        let object = try #require(printed.flatMap(UUID.init(uuidString:)), "no object printed: \(saved)")

        let app = try await RawApp.install(reader, on: broker, grants: [("share", Self.vision)])
        defer { app.close() }
        async let asked = broker.runApp(reader, ["snippet", "vision-per-object"])
        let listing = try await broker.pendingObjectRequests()
        let lines = listing.split(separator: "\n").map(String.init)
        let requestID = lines.first { $0.hasPrefix("Request ") }.flatMap { $0.dropFirst("Request ".count).split(separator: ":").first }
        let candidate = lines.first { $0.hasPrefix("  ") }?.split(separator: " ").first
        let answered = try await broker.healthctl(["object-requests", "--answer", String(try #require(requestID, "\(listing)")),
                                                   "--allow", String(try #require(candidate, "\(listing)"))])
        #expect(answered.status == 0, "\(answered)")
        #expect(try await asked.okValue == "1 HKVisionPrescription")

        let start = AttachmentUploadStart(object: AttachmentObjectRef(uuid: object, typeIdentifier: Self.vision),
                                          name: "scan.pdf", contentType: "com.adobe.pdf", size: 2, metadata: [:])
        let upload = try AttachmentUploadID(wire: await app.client.unary(HealthStoreMethod.beginAttachment.rawValue, start.wireBytes())).id
        #expect(await app.failure(.appendAttachmentData, AttachmentUploadChunk(uploadID: upload, offset: 0, data: [1])) == nil)

        try await broker.set(reader, "share", Self.vision, allowed: false)
        #expect(try await broker.healthctl(["object-grants", reader, "--revoke-all"]).status == 0)
        func answers() async -> [String] {
            [await app.failure(.appendAttachmentData, AttachmentUploadChunk(uploadID: upload, offset: 1, data: [2])),
             await app.failure(.finishAttachment, AttachmentUploadID(upload))].map { status in
                status.map { "\($0.code) \($0.healthKitCode.map { "\($0.rawValue)" } ?? "-") \($0.message)" } ?? "ok"
            }
        }
        let kept = await answers()
        let deletion = try await broker.healthctl(["delete", object.uuidString, "--yes"])
        #expect(deletion.status == 0, "\(deletion)")
        let gone = await answers()
        #expect(kept == gone)
        #expect(kept.allSatisfy { $0.contains("the attachment upload was not found") }, "\(kept)")
    }
}
