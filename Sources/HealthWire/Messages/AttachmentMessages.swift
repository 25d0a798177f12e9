import COpenHealthProto
public import Foundation
public import HealthModel

// The payloads of the attachment methods (proto/openhealth/v1/attachments.proto). Sizes are
// bounded here, on the way in, before anything is stored or buffered: a chunk carries at most
// `AttachmentLimits.chunkBytes`, a declared size is 0…`AttachmentLimits.maximumBytes`, and a
// listing at most `AttachmentLimits.maximumPerObject` attachments.

/// AttachmentObject: the object an attachment call names, by UUID and the type the caller holds
/// it as (nil from the manager, which may name an object of any type).
public struct AttachmentObjectRef: Sendable, Equatable {
    public var uuid: UUID
    public var typeIdentifier: String?

    public init(uuid: UUID, typeIdentifier: String?) {
        self.uuid = uuid
        self.typeIdentifier = typeIdentifier
    }

    static func read(_ pointer: UnsafeMutablePointer<Openhealth__V1__AttachmentObject>?) throws(WireDecodeError) -> AttachmentObjectRef {
        guard let wire = pointer?.pointee else { throw .invalidField("attachment object missing") }
        let type = WireRead.string(wire.object_type)
        return AttachmentObjectRef(uuid: try WireUUID.read(wire.object_uuid, "object uuid"), typeIdentifier: type.isEmpty ? nil : type)
    }

    func build(in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__AttachmentObject> {
        arena.message { (wire: inout Openhealth__V1__AttachmentObject) in
            wire.object_uuid = arena.bytes(uuid.bytes)
            wire.object_type = arena.string(typeIdentifier ?? "")
        }
    }
}

/// BeginAttachmentRequest: what a new attachment is, before its bytes.
public struct AttachmentUploadStart: WireMessage, Equatable {
    public var object: AttachmentObjectRef
    public var name: String
    public var contentType: String
    public var size: Int
    public var metadata: [String: MetadataValue]

    public init(object: AttachmentObjectRef, name: String, contentType: String, size: Int, metadata: [String: MetadataValue]) {
        self.object = object
        self.name = name
        self.contentType = contentType
        self.size = size
        self.metadata = metadata
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__BeginAttachmentRequest.self, from: bytes) { wire in
            guard wire.size >= 0, wire.size <= Int64(AttachmentLimits.maximumBytes) else {
                throw WireDecodeError.invalidField("attachment size \(wire.size) is outside 0…\(AttachmentLimits.maximumBytes) bytes")
            }
            return AttachmentUploadStart(object: try AttachmentObjectRef.read(wire.object), name: WireRead.string(wire.name),
                                         contentType: WireRead.string(wire.content_type), size: Int(wire.size),
                                         metadata: try MetadataWire.readAll(wire.metadata, count: wire.n_metadata))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__BeginAttachmentRequest.initialized()
        wire.object = object.build(in: arena)
        wire.name = arena.string(name)
        wire.content_type = arena.string(contentType)
        wire.size = Int64(size)
        (wire.n_metadata, wire.metadata) = MetadataWire.buildAll(metadata, in: arena)
        return ProtobufCodec.encode(wire)
    }
}

/// BeginAttachmentResponse, and FinishAttachmentRequest: an upload's identifier.
public struct AttachmentUploadID: WireMessage, Equatable {
    public var id: UUID

    public init(_ id: UUID) { self.id = id }

    public init(wire bytes: [UInt8]) throws {
        id = try ProtobufCodec.withDecoded(Openhealth__V1__BeginAttachmentResponse.self, from: bytes) { wire in
            try WireUUID.read(wire.upload_id, "upload id")
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__BeginAttachmentResponse.initialized()
        wire.upload_id = arena.bytes(id.bytes)
        return ProtobufCodec.encode(wire)
    }
}

/// AppendAttachmentDataRequest: one chunk of an upload, at `offset`.
public struct AttachmentUploadChunk: WireMessage, Equatable {
    public var uploadID: UUID
    public var offset: Int
    public var data: [UInt8]

    public init(uploadID: UUID, offset: Int, data: [UInt8]) {
        self.uploadID = uploadID
        self.offset = offset
        self.data = data
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__AppendAttachmentDataRequest.self, from: bytes) { wire in
            guard wire.data.len <= AttachmentLimits.chunkBytes else {
                throw WireDecodeError.invalidField("an attachment chunk may carry at most \(AttachmentLimits.chunkBytes) bytes")
            }
            guard wire.offset >= 0, wire.offset <= Int64(AttachmentLimits.maximumBytes) else {
                throw WireDecodeError.invalidField("attachment chunk offset \(wire.offset) is outside 0…\(AttachmentLimits.maximumBytes)")
            }
            return AttachmentUploadChunk(uploadID: try WireUUID.read(wire.upload_id, "upload id"), offset: Int(wire.offset),
                                         data: WireRead.bytes(wire.data))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__AppendAttachmentDataRequest.initialized()
        wire.upload_id = arena.bytes(uploadID.bytes)
        wire.offset = Int64(offset)
        wire.data = arena.bytes(data)
        return ProtobufCodec.encode(wire)
    }
}

enum AttachmentInfoWire {
    static func build(_ record: AttachmentRecord, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__AttachmentInfo> {
        arena.message { (wire: inout Openhealth__V1__AttachmentInfo) in
            wire.identifier = arena.bytes(record.identifier.bytes)
            wire.object_uuid = arena.bytes(record.objectUUID.bytes)
            wire.name = arena.string(record.name)
            wire.content_type = arena.string(record.contentType)
            wire.size = Int64(record.size)
            wire.creation_us = record.creationDate.microsecondsSince1970
            (wire.n_metadata, wire.metadata) = MetadataWire.buildAll(record.metadata, in: arena)
        }
    }

    static func read(_ wire: Openhealth__V1__AttachmentInfo) throws(WireDecodeError) -> AttachmentRecord {
        guard wire.size >= 0, wire.size <= Int64(AttachmentLimits.maximumBytes) else {
            throw .invalidField("attachment size \(wire.size) is outside 0…\(AttachmentLimits.maximumBytes) bytes")
        }
        return AttachmentRecord(identifier: try WireUUID.read(wire.identifier, "attachment id"),
                                objectUUID: try WireUUID.read(wire.object_uuid, "object uuid"),
                                name: WireRead.string(wire.name), contentType: WireRead.string(wire.content_type),
                                size: Int(wire.size), creationDate: Date(microsecondsSince1970: wire.creation_us),
                                metadata: try MetadataWire.readAll(wire.metadata, count: wire.n_metadata))
    }
}

/// AttachmentInfo: FinishAttachment's answer, the attachment as stored.
public struct AttachmentInfoMessage: WireMessage, Equatable {
    public var attachment: AttachmentRecord

    public init(_ attachment: AttachmentRecord) { self.attachment = attachment }

    public init(wire bytes: [UInt8]) throws {
        attachment = try ProtobufCodec.withDecoded(Openhealth__V1__AttachmentInfo.self, from: bytes) { wire in
            try AttachmentInfoWire.read(wire)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        return ProtobufCodec.encode(AttachmentInfoWire.build(attachment, in: arena).pointee)
    }
}

/// ListAttachmentsRequest: the object whose attachments are listed.
public struct AttachmentListRequest: WireMessage, Equatable {
    public var object: AttachmentObjectRef

    public init(object: AttachmentObjectRef) { self.object = object }

    public init(wire bytes: [UInt8]) throws {
        object = try ProtobufCodec.withDecoded(Openhealth__V1__ListAttachmentsRequest.self, from: bytes) { wire in
            try AttachmentObjectRef.read(wire.object)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ListAttachmentsRequest.initialized()
        wire.object = object.build(in: arena)
        return ProtobufCodec.encode(wire)
    }
}

/// ListAttachmentsResponse.
public struct AttachmentList: WireMessage, Equatable {
    public var attachments: [AttachmentRecord]

    public init(_ attachments: [AttachmentRecord]) { self.attachments = attachments }

    public init(wire bytes: [UInt8]) throws {
        attachments = try ProtobufCodec.withDecoded(Openhealth__V1__ListAttachmentsResponse.self, from: bytes) { wire in
            guard wire.n_attachments <= AttachmentLimits.maximumPerObject else {
                throw WireDecodeError.invalidField("more than \(AttachmentLimits.maximumPerObject) attachments")
            }
            return try WireRead.messages(wire.attachments, count: wire.n_attachments).map { (info) throws(WireDecodeError) in
                try AttachmentInfoWire.read(info)
            }
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ListAttachmentsResponse.initialized()
        let infos = attachments.map { AttachmentInfoWire.build($0, in: arena) }
        wire.n_attachments = infos.count
        wire.attachments = arena.messages(infos)
        return ProtobufCodec.encode(wire)
    }
}

/// AttachmentRequest: one attachment of one object (ReadAttachmentData, RemoveAttachment).
public struct AttachmentRequest: WireMessage, Equatable {
    public var object: AttachmentObjectRef
    public var attachmentID: UUID

    public init(object: AttachmentObjectRef, attachmentID: UUID) {
        self.object = object
        self.attachmentID = attachmentID
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__AttachmentRequest.self, from: bytes) { wire in
            AttachmentRequest(object: try AttachmentObjectRef.read(wire.object),
                              attachmentID: try WireUUID.read(wire.attachment_id, "attachment id"))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__AttachmentRequest.initialized()
        wire.object = object.build(in: arena)
        wire.attachment_id = arena.bytes(attachmentID.bytes)
        return ProtobufCodec.encode(wire)
    }
}

/// AttachmentDataChunk: one message of ReadAttachmentData's stream.
public struct AttachmentDataChunk: WireMessage, Equatable {
    public var offset: Int
    public var data: [UInt8]
    public var done: Bool
    public var totalSize: Int

    public init(offset: Int, data: [UInt8], done: Bool, totalSize: Int) {
        self.offset = offset
        self.data = data
        self.done = done
        self.totalSize = totalSize
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__AttachmentDataChunk.self, from: bytes) { wire in
            guard wire.data.len <= AttachmentLimits.chunkBytes else {
                throw WireDecodeError.invalidField("an attachment chunk may carry at most \(AttachmentLimits.chunkBytes) bytes")
            }
            let limit = Int64(AttachmentLimits.maximumBytes)
            guard wire.total_size >= 0, wire.total_size <= limit, wire.offset >= 0,
                  wire.offset + Int64(wire.data.len) <= wire.total_size else {
                throw WireDecodeError.invalidField("attachment chunk outside the attachment's 0…\(limit) bytes")
            }
            return AttachmentDataChunk(offset: Int(wire.offset), data: WireRead.bytes(wire.data), done: wire.done != 0,
                                       totalSize: Int(wire.total_size))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__AttachmentDataChunk.initialized()
        wire.offset = Int64(offset)
        wire.data = arena.bytes(data)
        wire.done = done ? 1 : 0
        wire.total_size = Int64(totalSize)
        return ProtobufCodec.encode(wire)
    }
}
