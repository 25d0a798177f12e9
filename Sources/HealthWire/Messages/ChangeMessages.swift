import COpenHealthProto
import Foundation
public import HealthModel

// The payloads of the change-feed methods (proto/openhealth/v1/changes.proto).

/// AnchoredQueryRequest: HKAnchoredObjectQuery as the broker takes it — one type and predicate,
/// or (`queryDescriptors:`) several, read as one feed under one anchor.
public struct AnchoredQuerySpec: WireMessage, Equatable {
    /// The (type, predicate) parts, at least one: the one type of `init(type:…)`, or one per
    /// `HKQueryDescriptor`, in the app's order.
    public var descriptors: [TypePredicateSpec]
    /// An opaque anchor the broker issued earlier; empty for "from the beginning".
    public var anchor: [UInt8]
    /// Samples and deleted objects together per delivery; 0 for no limit.
    public var limit: Int
    public var longRunning: Bool

    /// Anchors are short; anything longer than this is refused before it is copied.
    public static let maxAnchorBytes = 256
    /// The most descriptors one query takes: each costs the broker reads at every delivery, so
    /// their number is bounded before any is decoded. More than HealthKit's readable sample types
    /// an app would list at once.
    public static let maxDescriptors = 64

    public init(typeIdentifier: String, predicate: SamplePredicate? = nil, anchor: [UInt8] = [], limit: Int = 0,
                longRunning: Bool = false) {
        self.init(descriptors: [TypePredicateSpec(typeIdentifier: typeIdentifier, predicate: predicate)],
                  anchor: anchor, limit: limit, longRunning: longRunning)
    }

    public init(descriptors: [TypePredicateSpec], anchor: [UInt8] = [], limit: Int = 0, longRunning: Bool = false) {
        self.descriptors = descriptors
        self.anchor = anchor
        self.limit = limit
        self.longRunning = longRunning
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__AnchoredQueryRequest.self, from: bytes) { wire in
            guard wire.anchor.len <= Self.maxAnchorBytes else {
                throw WireDecodeError.invalidField("anchor longer than \(Self.maxAnchorBytes) bytes")
            }
            guard wire.n_descriptors <= Self.maxDescriptors else {
                throw WireDecodeError.invalidField("more than \(Self.maxDescriptors) query descriptors")
            }
            let descriptors: [TypePredicateSpec]
            if wire.n_descriptors == 0 {
                descriptors = [TypePredicateSpec(typeIdentifier: WireRead.string(wire.type),
                                                 predicate: try wire.predicate.flatMap { (p) throws(WireDecodeError) in try PredicateWire.read(p.pointee) })]
            } else {
                // Either form, never both: a type beside descriptors would be a part nobody listed.
                guard WireRead.string(wire.type).isEmpty, wire.predicate == nil else {
                    throw WireDecodeError.invalidField("an anchored query has a type and predicate or descriptors, not both")
                }
                descriptors = try WireRead.messages(wire.descriptors, count: wire.n_descriptors).map { (part) throws(WireDecodeError) in
                    TypePredicateSpec(typeIdentifier: WireRead.string(part.type),
                                      predicate: try part.predicate.flatMap { (p) throws(WireDecodeError) in try PredicateWire.read(p.pointee) })
                }
                guard descriptors.count == wire.n_descriptors else { throw WireDecodeError.invalidField("an empty query descriptor") }
            }
            return AnchoredQuerySpec(descriptors: descriptors, anchor: WireRead.bytes(wire.anchor), limit: Int(wire.limit),
                                     longRunning: wire.long_running != 0)
        }
    }

    /// One descriptor travels as `type` and `predicate`, so a one-type query reads the same
    /// whichever initializer made it.
    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__AnchoredQueryRequest.initialized()
        if descriptors.count == 1, let only = descriptors.first {
            wire.type = arena.string(only.typeIdentifier)
            if let predicate = only.predicate { wire.predicate = PredicateWire.build(predicate, in: arena) }
        } else {
            let parts = descriptors.map { descriptor in
                arena.message { (part: inout Openhealth__V1__QueryDescriptor) in
                    part.type = arena.string(descriptor.typeIdentifier)
                    if let predicate = descriptor.predicate { part.predicate = PredicateWire.build(predicate, in: arena) }
                }
            }
            wire.n_descriptors = parts.count
            wire.descriptors = arena.messages(parts)
        }
        wire.anchor = arena.bytes(anchor)
        wire.limit = UInt32(clamping: max(0, limit))
        wire.long_running = longRunning ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}

/// AnchoredQueryBatch: one message of a delivery.
public struct AnchoredQueryBatch: WireMessage, Equatable {
    public var samples: [SampleRecord]
    public var deletedObjects: [DeletedObjectRecord]
    /// Set on the last message of the initial results or of one update.
    public var endOfDelivery: Bool
    /// The anchor to continue from; only on the last message of a delivery.
    public var anchor: [UInt8]

    public init(samples: [SampleRecord], deletedObjects: [DeletedObjectRecord], endOfDelivery: Bool, anchor: [UInt8] = []) {
        self.samples = samples
        self.deletedObjects = deletedObjects
        self.endOfDelivery = endOfDelivery
        self.anchor = anchor
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__AnchoredQueryBatch.self, from: bytes) { wire in
            guard wire.n_samples + wire.n_deleted_objects <= WireLimits.maxSamplesPerSave else {
                throw WireDecodeError.invalidField("more than \(WireLimits.maxSamplesPerSave) objects in one message")
            }
            guard wire.anchor.len <= AnchoredQuerySpec.maxAnchorBytes else {
                throw WireDecodeError.invalidField("anchor longer than \(AnchoredQuerySpec.maxAnchorBytes) bytes")
            }
            let samples = try SampleWire.readAll(wire.samples, count: wire.n_samples)
            let deleted = try WireRead.messages(wire.deleted_objects, count: wire.n_deleted_objects).map(DeletedObjectWire.read)
            return AnchoredQueryBatch(samples: samples, deletedObjects: deleted, endOfDelivery: wire.end_of_delivery != 0,
                                      anchor: WireRead.bytes(wire.anchor))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__AnchoredQueryBatch.initialized()
        var builder = SampleWireBuilder(in: arena)
        let samples = builder.build(samples)
        wire.n_samples = samples.count
        wire.samples = arena.messages(samples)
        let deleted = deletedObjects.map { DeletedObjectWire.build($0, in: arena) }
        wire.n_deleted_objects = deleted.count
        wire.deleted_objects = arena.messages(deleted)
        wire.end_of_delivery = endOfDelivery ? 1 : 0
        wire.anchor = arena.bytes(anchor)
        return ProtobufCodec.encode(wire)
    }
}

/// Conversion between `DeletedObjectRecord` and `openhealth.v1.DeletedObject`.
enum DeletedObjectWire {
    static func build(_ record: DeletedObjectRecord, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__DeletedObject> {
        arena.message { (wire: inout Openhealth__V1__DeletedObject) in
            wire.uuid = arena.bytes(of: record.uuid)
            if let sync = record.syncIdentity {
                wire.sync_identifier = arena.string(sync.identifier)
                wire.sync_version = sync.version
            }
        }
    }

    static func read(_ wire: Openhealth__V1__DeletedObject) throws(WireDecodeError) -> DeletedObjectRecord {
        guard let uuid = UUID(bytes: WireRead.bytes(wire.uuid)) else { throw .invalidField("deleted object uuid must be 16 bytes") }
        let identifier = WireRead.string(wire.sync_identifier)
        let sync = identifier.isEmpty ? nil : SyncIdentity(identifier: identifier, version: wire.sync_version)
        return DeletedObjectRecord(uuid: uuid, syncIdentity: sync)
    }
}

/// ObserverQueryRequest and SourceQueryRequest share a shape: a type and a predicate.
public struct TypePredicateSpec: WireMessage, Equatable {
    public var typeIdentifier: String
    public var predicate: SamplePredicate?

    public init(typeIdentifier: String, predicate: SamplePredicate? = nil) {
        self.typeIdentifier = typeIdentifier
        self.predicate = predicate
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ObserverQueryRequest.self, from: bytes) { wire in
            TypePredicateSpec(typeIdentifier: WireRead.string(wire.type),
                              predicate: try wire.predicate.flatMap { (p) throws(WireDecodeError) in try PredicateWire.read(p.pointee) })
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ObserverQueryRequest.initialized()
        wire.type = arena.string(typeIdentifier)
        if let predicate { wire.predicate = PredicateWire.build(predicate, in: arena) }
        return ProtobufCodec.encode(wire)
    }
}

/// ObserverUpdate: which observer, which delivery. (An acknowledgement written in this shape —
/// an `ObserverAcknowledgement` without a step — acknowledges handled and completed.)
public struct ObserverDelivery: WireMessage, Equatable {
    public var observerID: UInt64
    public var delivery: UInt64

    public init(observerID: UInt64, delivery: UInt64) {
        self.observerID = observerID
        self.delivery = delivery
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ObserverUpdate.self, from: bytes) { wire in
            ObserverDelivery(observerID: wire.observer_id, delivery: wire.delivery)
        }
    }

    public func wireBytes() -> [UInt8] {
        var wire = Openhealth__V1__ObserverUpdate.initialized()
        wire.observer_id = observerID
        wire.delivery = delivery
        return ProtobufCodec.encode(wire)
    }
}

/// SourceList: the sources a source query found (bundle identifier and name).
public struct SourceList: WireMessage, Equatable {
    public var sources: [SourceRecord]

    public init(_ sources: [SourceRecord]) { self.sources = sources }

    public init(wire bytes: [UInt8]) throws {
        sources = try ProtobufCodec.withDecoded(Openhealth__V1__SourceList.self, from: bytes) { wire in
            WireRead.messages(wire.sources, count: wire.n_sources).map { revision in
                SourceRecord(bundleIdentifier: WireRead.string(revision.bundle_identifier), name: WireRead.string(revision.name))
            }
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__SourceList.initialized()
        let built = sources.map { source in
            arena.message { (revision: inout Openhealth__V1__SourceRevision) in
                revision.bundle_identifier = arena.string(source.bundleIdentifier)
                revision.name = arena.string(source.name)
            }
        }
        wire.n_sources = built.count
        wire.sources = arena.messages(built)
        return ProtobufCodec.encode(wire)
    }
}

extension AnchoredQueryBatch {
    /// At most the bytes `deleted` takes in `deleted_objects`: its tag and length (at most 1 + 5),
    /// the UUID's 18, the identifier's tag, length and text, the version's tag and varint.
    public static func encodedSizeBound(of deleted: DeletedObjectRecord) -> Int {
        6 + 18 + (deleted.syncIdentity.map { 1 + 5 + WireText.packable($0.identifier).count + 1 + 10 } ?? 0)
    }
}
