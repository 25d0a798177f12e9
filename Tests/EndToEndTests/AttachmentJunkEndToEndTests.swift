import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Junk through the attachment calls (`beginAttachment` → `appendAttachmentData` →
/// `finishAttachment`), as `JunkValueEndToEndTests` does for `save`: this test process, an app
/// speaking the wire directly to a real healthd, varies one field of a valid upload's
/// description at a time — name, content type, size, metadata — over the string extremes
/// (empty, at and past the byte bound, one character of many bytes, NUL, control and bidi
/// characters, a path) and the number extremes (NaN, ±inf, 1e308 once converted, negative,
/// Int.max). Each is refused with errorInvalidArgument naming the field, or stored and listed
/// back byte for byte; healthd answers afterwards.
@Suite(.timeLimit(.minutes(10)), .serialized) struct AttachmentJunkEndToEndTests {
    static let appID = "org.test.attachment-junk"
    static let vision = HKVisionPrescriptionTypeIdentifier

    struct Upload: CustomStringConvertible, Sendable {
        let name: String
        /// Text the refusal must contain; nil: valid, stored and listed back exactly.
        let field: String?
        var fileName = "scan.pdf"
        var contentType = "com.adobe.pdf"
        var size = 4
        var metadata: [String: MetadataValue] = [:]

        var description: String { name }
    }

    static let longName = String(repeating: "n", count: AttachmentLimits.maximumNameBytes)
    static let oneCharacterOfManyBytes = "e" + String(repeating: "\u{301}", count: 200)

    /// One field varied at a time from a valid upload.
    static let cases: [Upload] = {
        var cases: [Upload] = []
        func name(_ label: String, _ value: String, _ field: String?) { cases.append(Upload(name: "name \(label)", field: field, fileName: value)) }
        func type(_ label: String, _ value: String, _ field: String?) { cases.append(Upload(name: "content type \(label)", field: field, contentType: value)) }
        func size(_ value: Int, _ field: String?) { cases.append(Upload(name: "size \(value)", field: field, size: value)) }
        func metadata(_ label: String, _ value: MetadataValue, _ field: String?) {
            cases.append(Upload(name: "metadata \(label)", field: field, metadata: ["org.test.m": value]))
        }
        name("empty", "", "name")
        name("at the byte bound", longName, nil)
        name("a byte past it", longName + "n", "name")
        name("of one character and 401 bytes", oneCharacterOfManyBytes + oneCharacterOfManyBytes, "name")
        name("holding a path", "../../etc/passwd", "name")
        name("holding NUL", "scan\u{0}.pdf", "name")
        name("holding ESC sequences", "\u{1B}]0;owned\u{7}\u{1B}[2J.pdf", nil)
        name("holding a right-to-left override", "scan\u{202E}fdp.exe", nil)
        name("holding a newline", "line\nbreak.pdf", nil)
        name("in Hebrew with emoji", "מרשם 👓.pdf", nil)
        type("empty", "", "content type")
        type("with a space", "com.adobe pdf", "content type")
        type("with a bidi override", "com.adobe.\u{202E}pdf", "content type")
        type("with NUL", "public.\u{0}jpeg", "content_type")  // refused by the wire decoder, which names the proto field
        type("of 256 bytes", String(repeating: "a", count: AttachmentLimits.maximumContentTypeBytes + 1), "content type")
        type("of 255 bytes", String(repeating: "a", count: AttachmentLimits.maximumContentTypeBytes), nil)
        size(-1, "size")
        size(Int.max, "size")
        size(AttachmentLimits.maximumBytes + 1, "size")
        metadata("number NaN", .number(.nan), "org.test.m")
        metadata("number -inf", .number(-.infinity), "org.test.m")
        metadata("quantity 1e308 m", .quantity(value: 1e308, unit: "m"), "org.test.m")
        metadata("quantity in Tm^24/pm^23", .quantity(value: 1, unit: "Tm^24/pm^23"), "org.test.m")
        metadata("date in the year 294,000", .date(Date(microsecondsSince1970: .max)), "org.test.m")
        metadata("string past its bound", .string(String(repeating: "s", count: SampleLimits.maximumMetadataStringBytes + 1)), "org.test.m")
        metadata("string with control and bidi characters", .string("a\u{1B}[31m\u{202E}b\r\n"), nil)
        metadata("quantity -1e240 m", .quantity(value: -1e240, unit: "m"), nil)
        return cases
    }()

    @Test func everyDescriptionFieldIsRefusedNamingItOrStoredExactly() async throws {
        let broker = try BrokerProcess()
        let app = try await RawApp.install(Self.appID, on: broker, grants: [("share", Self.vision)])
        defer { app.close() }
        let object = try #require(try await app.save([JunkRecords.glasses()]).first)
        let reference = AttachmentObjectRef(uuid: object, typeIdentifier: Self.vision)
        var stored: [String: Upload] = [:]
        for upload in Self.cases {
            let start = AttachmentUploadStart(object: reference, name: upload.fileName, contentType: upload.contentType,
                                              size: upload.size, metadata: upload.metadata)
            let id: UUID
            do {
                id = try AttachmentUploadID(wire: await app.client.unary(HealthStoreMethod.beginAttachment.rawValue, start.wireBytes())).id
            } catch let status as RPCStatus {
                #expect(upload.field != nil, "\(upload): refused: \(status)")
                #expect(status.healthKitCode == .errorInvalidArgument, "\(upload): \(status)")
                if let field = upload.field { #expect(status.message.contains(field), "\(upload): \(status.message)") }
                continue
            }
            guard upload.field == nil else {
                Issue.record("\(upload): accepted")
                continue
            }
            _ = try await app.client.unary(HealthStoreMethod.appendAttachmentData.rawValue,
                                           AttachmentUploadChunk(uploadID: id, offset: 0, data: Array("%PDF".utf8)).wireBytes())
            let info = try AttachmentInfoMessage(wire: await app.client.unary(HealthStoreMethod.finishAttachment.rawValue,
                                                                              AttachmentUploadID(id).wireBytes()))
            stored[info.attachment.identifier.uuidString] = upload
        }
        let listed = try AttachmentList(wire: await app.client.unary(HealthStoreMethod.listAttachments.rawValue,
                                                                     AttachmentListRequest(object: reference).wireBytes()))
        #expect(listed.attachments.count == stored.count)
        for attachment in listed.attachments {
            guard let upload = stored[attachment.identifier.uuidString] else {
                Issue.record("\(attachment.name): listed, never stored")
                continue
            }
            #expect(Array(attachment.name.utf8) == Array(upload.fileName.utf8), "\(upload)")
            #expect(attachment.contentType == upload.contentType, "\(upload)")
            #expect(attachment.metadata == upload.metadata, "\(upload)")
            #expect(attachment.size == upload.size, "\(upload)")
        }
        // healthd survived every case.
        #expect(try await app.save([JunkRecords.glasses()]).count == 1)
    }
}
