import COpenHealthProto
public import Foundation
public import HealthModel

// The payloads of the app-facing HealthStore service (proto/openhealth/v1/health_store.proto).

/// AuthorizationRequest: the type identifiers an app asks to share (write) and to read.
public struct AuthorizationTypes: WireMessage, Equatable {
    public var shareTypes: [String]
    public var readTypes: [String]

    public init(share: [String], read: [String]) {
        shareTypes = share
        readTypes = read
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__AuthorizationRequest.self, from: bytes) { wire in
            AuthorizationTypes(share: WireRead.strings(wire.share_types, count: wire.n_share_types),
                               read: WireRead.strings(wire.read_types, count: wire.n_read_types))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__AuthorizationRequest.initialized()
        wire.n_share_types = shareTypes.count
        wire.share_types = arena.strings(shareTypes)
        wire.n_read_types = readTypes.count
        wire.read_types = arena.strings(readTypes)
        return ProtobufCodec.encode(wire)
    }
}

/// A single raw status value (RequestStatusResponse, AuthorizationStatusResponse).
public struct StatusValue: WireMessage, Equatable {
    public var rawValue: Int

    public init(_ rawValue: Int) { self.rawValue = rawValue }

    public init(wire bytes: [UInt8]) throws {
        rawValue = try ProtobufCodec.withDecoded(Openhealth__V1__AuthorizationStatusResponse.self, from: bytes) { Int($0.status) }
    }

    public func wireBytes() -> [UInt8] {
        var wire = Openhealth__V1__AuthorizationStatusResponse.initialized()
        wire.status = Int32(clamping: rawValue)
        return ProtobufCodec.encode(wire)
    }
}

/// AuthorizationStatusRequest: one type identifier.
public struct TypeIdentifierMessage: WireMessage, Equatable {
    public var identifier: String

    public init(_ identifier: String) { self.identifier = identifier }

    public init(wire bytes: [UInt8]) throws {
        identifier = try ProtobufCodec.withDecoded(Openhealth__V1__AuthorizationStatusRequest.self, from: bytes) {
            WireRead.string($0.type)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__AuthorizationStatusRequest.initialized()
        wire.type = arena.string(identifier)
        return ProtobufCodec.encode(wire)
    }
}

/// An empty message (RequestAuthorizationResponse and the like).
public struct EmptyMessage: WireMessage, Equatable {
    public init() {}
    public init(wire bytes: [UInt8]) throws {
        try ProtobufCodec.withDecoded(Openhealth__V1__RequestAuthorizationResponse.self, from: bytes) { _ in () }
    }
    public func wireBytes() -> [UInt8] { [] }
}

/// CurrentSourceRequest: empty; the caller's identity is the connection's.
public struct CurrentSourceRequest: WireMessage, Equatable {
    public init() {}
    public init(wire bytes: [UInt8]) throws {
        try ProtobufCodec.withDecoded(Openhealth__V1__CurrentSourceRequest.self, from: bytes) { _ in () }
    }
    public func wireBytes() -> [UInt8] { [] }
}

/// SaveRequest and SampleBatch share a shape: a list of samples.
public struct SampleList: WireMessage, Equatable {
    public var samples: [SampleRecord]

    public init(_ samples: [SampleRecord]) { self.samples = samples }

    public init(wire bytes: [UInt8]) throws {
        samples = try ProtobufCodec.withDecoded(Openhealth__V1__SampleBatch.self, from: bytes) { wire in
            guard wire.n_samples <= WireLimits.maxSamplesPerSave else {
                throw WireDecodeError.invalidField("more than \(WireLimits.maxSamplesPerSave) samples in one message")
            }
            return try SampleWire.readAll(wire.samples, count: wire.n_samples)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__SampleBatch.initialized()
        var builder = SampleWireBuilder(in: arena)
        let built = builder.build(samples)
        wire.n_samples = built.count
        wire.samples = arena.messages(built)
        return ProtobufCodec.encode(wire)
    }

    /// The bytes `record` takes in a list of samples (its tag, length and message): also in an
    /// anchored batch, whose samples are field 1 too. What answers are cut by (`ResultBatching`).
    public static func encodedSize(of record: SampleRecord) -> Int {
        SampleList([record]).wireBytes().count
    }
}

/// SaveResponse: the broker-assigned UUIDs, in the order the samples were sent.
public struct SavedUUIDs: WireMessage, Equatable {
    public var uuids: [UUID]

    public init(_ uuids: [UUID]) { self.uuids = uuids }

    public init(wire bytes: [UInt8]) throws {
        uuids = try ProtobufCodec.withDecoded(Openhealth__V1__SaveResponse.self, from: bytes) { wire in
            guard wire.n_uuids > 0 else { return [] }
            return try UnsafeBufferPointer(start: wire.uuids, count: wire.n_uuids).map { data in
                guard let uuid = UUID(bytes: WireRead.bytes(data)) else { throw WireDecodeError.invalidField("uuid must be 16 bytes") }
                return uuid
            }
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__SaveResponse.initialized()
        let values = uuids.map { arena.bytes($0.bytes) }
        wire.n_uuids = values.count
        wire.uuids = arena.array(values)
        return ProtobufCodec.encode(wire)
    }
}

/// SampleQueryRequest.
extension SampleQuerySpec: WireMessage {
    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__SampleQueryRequest.self, from: bytes) { wire in
            let sort = try WireRead.messages(wire.sort, count: wire.n_sort).map { (descriptor) throws(WireDecodeError) in
                try SampleSort(wire: descriptor)
            }
            guard sort.count <= 4 else { throw WireDecodeError.invalidField("at most 4 sort descriptors") }
            return SampleQuerySpec(
                typeIdentifier: WireRead.string(wire.type),
                predicate: try wire.predicate.flatMap { (p) throws(WireDecodeError) in try PredicateWire.read(p.pointee) },
                sort: sort, limit: Int(wire.limit))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__SampleQueryRequest.initialized()
        wire.type = arena.string(typeIdentifier)
        if let predicate { wire.predicate = PredicateWire.build(predicate, in: arena) }
        let sorts = sort.map { descriptor in
            arena.message { (wire: inout Openhealth__V1__SortDescriptor) in
                wire.key = descriptor.wireKey
                wire.ascending = descriptor.ascending ? 1 : 0
            }
        }
        wire.n_sort = sorts.count
        wire.sort = arena.messages(sorts)
        wire.limit = UInt32(clamping: max(0, limit))
        return ProtobufCodec.encode(wire)
    }
}
