import COpenHealthProto
public import Foundation
public import HealthModel

// The payloads of the deletion methods (proto/openhealth/v1/workouts.proto).

/// DeleteObjectsRequest: `delete(_:)`, these objects all or none.
public struct ObjectDeletion: WireMessage, Equatable {
    public var objects: [ObjectReference]

    public init(_ objects: [ObjectReference]) { self.objects = objects }

    public init(wire bytes: [UInt8]) throws {
        objects = try ProtobufCodec.withDecoded(Openhealth__V1__DeleteObjectsRequest.self, from: bytes) { wire in
            guard wire.n_objects <= WireLimits.maxObjectsPerCall else {
                throw WireDecodeError.invalidField("more than \(WireLimits.maxObjectsPerCall) objects in one call")
            }
            return try WireRead.messages(wire.objects, count: wire.n_objects).map { (reference) throws(WireDecodeError) in
                ObjectReference(typeIdentifier: WireRead.string(reference.type), uuid: try WireUUID.read(reference.uuid, "object uuid"))
            }
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__DeleteObjectsRequest.initialized()
        let references = objects.map { object in
            arena.message { (wire: inout Openhealth__V1__ObjectReference) in
                wire.type = arena.string(object.typeIdentifier)
                wire.uuid = arena.bytes(object.uuid.bytes)
            }
        }
        wire.n_objects = references.count
        wire.objects = arena.messages(references)
        return ProtobufCodec.encode(wire)
    }
}

/// DeleteMatchingRequest: `deleteObjects(of:predicate:)`.
public struct MatchingDeletion: WireMessage, Equatable {
    public var typeIdentifier: String
    public var predicate: SamplePredicate?

    public init(typeIdentifier: String, predicate: SamplePredicate?) {
        self.typeIdentifier = typeIdentifier
        self.predicate = predicate
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__DeleteMatchingRequest.self, from: bytes) { wire in
            MatchingDeletion(typeIdentifier: WireRead.string(wire.type),
                             predicate: try wire.predicate.flatMap { (p) throws(WireDecodeError) in try PredicateWire.read(p.pointee) })
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__DeleteMatchingRequest.initialized()
        wire.type = arena.string(typeIdentifier)
        if let predicate { wire.predicate = PredicateWire.build(predicate, in: arena) }
        return ProtobufCodec.encode(wire)
    }
}

/// DeleteObjectsResponse: how many objects were deleted.
public struct DeletedCount: WireMessage, Equatable {
    public var count: Int

    public init(_ count: Int) { self.count = count }

    public init(wire bytes: [UInt8]) throws {
        count = try ProtobufCodec.withDecoded(Openhealth__V1__DeleteObjectsResponse.self, from: bytes) { wire in
            guard let count = Int(exactly: wire.count) else { throw WireDecodeError.invalidField("count out of range") }
            return count
        }
    }

    public func wireBytes() -> [UInt8] {
        var wire = Openhealth__V1__DeleteObjectsResponse.initialized()
        wire.count = UInt64(max(0, count))
        return ProtobufCodec.encode(wire)
    }
}
