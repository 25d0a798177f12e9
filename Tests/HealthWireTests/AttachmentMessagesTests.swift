import Foundation
import HealthModel
import Testing
@testable import HealthWire

/// The attachment payloads (attachments.proto): each round-trips, and every bound is checked on
/// the way in — before healthd stores or buffers anything — at its edge: size 0 and 16 MiB
/// accepted, -1 and 16 MiB + 1 refused; a chunk of 256 KiB accepted, one byte more refused; a
/// NUL or invalid UTF-8 in a name refused, never truncated or replaced.
@Suite(.timeLimit(.minutes(10))) struct AttachmentMessagesTests {
    static let object = AttachmentObjectRef(uuid: UUID(), typeIdentifier: HKVisionPrescriptionTypeIdentifier)

    static func start(name: String = "scan.pdf", size: Int) -> AttachmentUploadStart {
        AttachmentUploadStart(object: object, name: name, contentType: "com.adobe.pdf", size: size,
                              metadata: ["page": .number(1), "note": .string("front")])
    }

    @Test(arguments: [0, 1, AttachmentLimits.maximumBytes])
    func anUploadStartRoundTrips(size: Int) throws {
        let message = Self.start(size: size)
        #expect(try AttachmentUploadStart(wire: message.wireBytes()) == message)
    }

    @Test(arguments: [-1, AttachmentLimits.maximumBytes + 1, Int(Int64.max)])
    func aSizeOutsideTheLimitIsRefused(size: Int) throws {
        let error = try #require(throws: WireDecodeError.self) { try AttachmentUploadStart(wire: Self.start(size: size).wireBytes()) }
        #expect("\(error)".contains("outside 0…\(AttachmentLimits.maximumBytes)"), "\(error)")
    }

    @Test(arguments: [0, 1, AttachmentLimits.chunkBytes])
    func aChunkUpToTheLimitRoundTrips(count: Int) throws {
        let chunk = AttachmentUploadChunk(uploadID: UUID(), offset: 7, data: [UInt8](repeating: 0xAB, count: count))
        #expect(try AttachmentUploadChunk(wire: chunk.wireBytes()) == chunk)
        let data = AttachmentDataChunk(offset: 0, data: chunk.data, done: true, totalSize: count)
        #expect(try AttachmentDataChunk(wire: data.wireBytes()) == data)
    }

    @Test func aChunkOverTheLimitIsRefusedBothWays() throws {
        let bytes = [UInt8](repeating: 1, count: AttachmentLimits.chunkBytes + 1)
        #expect(throws: WireDecodeError.self) {
            try AttachmentUploadChunk(wire: AttachmentUploadChunk(uploadID: UUID(), offset: 0, data: bytes).wireBytes())
        }
        #expect(throws: WireDecodeError.self) {
            try AttachmentDataChunk(wire: AttachmentDataChunk(offset: 0, data: bytes, done: true, totalSize: bytes.count).wireBytes())
        }
    }

    /// A data chunk may not reach past the total it announces, nor start before 0.
    @Test(arguments: [(-1, 4, 10), (8, 4, 10), (0, 0, -1), (0, 0, AttachmentLimits.maximumBytes + 1)])
    func aDataChunkOutsideItsAttachmentIsRefused(offset: Int, count: Int, total: Int) throws {
        let chunk = AttachmentDataChunk(offset: offset, data: [UInt8](repeating: 2, count: count), done: false, totalSize: total)
        #expect(throws: WireDecodeError.self) { try AttachmentDataChunk(wire: chunk.wireBytes()) }
    }

    @Test func aNulInANameIsRefusedNotTruncated() throws {
        let error = try #require(throws: WireDecodeError.self) {
            try AttachmentUploadStart(wire: Self.start(name: "scan\u{0}.exe", size: 1).wireBytes())
        }
        #expect("\(error)".contains("NUL"), "\(error)")
    }

    @Test func invalidUTF8InANameIsRefusedNotReplaced() throws {
        var bytes = Self.start(name: "scanXY.pdf", size: 1).wireBytes()
        let marker = [UInt8]("scanXY".utf8)
        let at = try #require((0...(bytes.count - marker.count)).first { Array(bytes[$0..<($0 + marker.count)]) == marker })
        bytes[at + 4] = 0xFF
        bytes[at + 5] = 0xFE
        let error = try #require(throws: WireDecodeError.self) { try AttachmentUploadStart(wire: bytes) }
        #expect("\(error)".contains("not valid UTF-8"), "\(error)")
    }

    @Test func aListingRoundTripsAndIsBounded() throws {
        let record = AttachmentRecord(identifier: UUID(), objectUUID: Self.object.uuid, name: "Ünïcode scan 📄.png", contentType: "public.png",
                                      size: 12, creationDate: Date(timeIntervalSince1970: 1_700_000_000.25), metadata: ["page": .number(2)])
        let list = AttachmentList([record])
        #expect(try AttachmentList(wire: list.wireBytes()) == list)
        let over = AttachmentList(Array(repeating: record, count: AttachmentLimits.maximumPerObject + 1))
        #expect(throws: WireDecodeError.self) { try AttachmentList(wire: over.wireBytes()) }
        // The manager's object reference carries no type.
        let request = AttachmentRequest(object: AttachmentObjectRef(uuid: UUID(), typeIdentifier: nil), attachmentID: UUID())
        #expect(try AttachmentRequest(wire: request.wireBytes()) == request)
    }
}
