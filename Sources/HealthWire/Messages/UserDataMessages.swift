import COpenHealthProto
public import Foundation
public import HealthModel

// The manager's payloads for the user's own changes to their data
// (proto/openhealth/v1/health_manager.proto: DeleteSamples, RemoveApp).

/// DeleteSamplesRequest: objects of any source by UUID, or every sample of one type that a
/// predicate matches. A dry run counts what would be deleted.
public struct ManagerDeletion: WireMessage, Equatable {
    public enum Target: Equatable, Sendable {
        case uuids([UUID])
        case matching(typeIdentifier: String, predicate: SamplePredicate?)
    }

    public var target: Target
    public var dryRun: Bool

    public init(_ target: Target, dryRun: Bool) {
        self.target = target
        self.dryRun = dryRun
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__DeleteSamplesRequest.self, from: bytes) { wire in
            guard wire.n_uuids <= WireLimits.maxObjectsPerCall else {
                throw WireDecodeError.invalidField("more than \(WireLimits.maxObjectsPerCall) objects in one call")
            }
            let type = WireRead.string(wire.type)
            let predicate = try wire.predicate.flatMap { (p) throws(WireDecodeError) in try PredicateWire.read(p.pointee) }
            if wire.n_uuids > 0 {
                guard type.isEmpty, predicate == nil else {
                    throw WireDecodeError.invalidField("a deletion names UUIDs or a type and predicate, not both")
                }
                let uuids = try UnsafeBufferPointer(start: wire.uuids, count: wire.n_uuids).map { (data) throws(WireDecodeError) in
                    guard let uuid = UUID(bytes: WireRead.bytes(data)) else { throw WireDecodeError.invalidField("uuid must be 16 bytes") }
                    return uuid
                }
                return ManagerDeletion(.uuids(uuids), dryRun: wire.dry_run != 0)
            }
            return ManagerDeletion(.matching(typeIdentifier: type, predicate: predicate), dryRun: wire.dry_run != 0)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__DeleteSamplesRequest.initialized()
        switch target {
        case let .uuids(uuids):
            let values = uuids.map { arena.bytes($0.bytes) }
            wire.n_uuids = values.count
            wire.uuids = arena.array(values)
        case let .matching(type, predicate):
            wire.type = arena.string(type)
            if let predicate { wire.predicate = PredicateWire.build(predicate, in: arena) }
        }
        wire.dry_run = dryRun ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}

/// RemoveAppRequest: uninstall an app, and delete what it saved if asked.
public struct AppRemoval: WireMessage, Equatable {
    public var appID: String
    public var deleteData: Bool

    public init(appID: String, deleteData: Bool) {
        self.appID = appID
        self.deleteData = deleteData
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__RemoveAppRequest.self, from: bytes) { wire in
            AppRemoval(appID: WireRead.string(wire.app_id), deleteData: wire.delete_data != 0)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__RemoveAppRequest.initialized()
        wire.app_id = arena.string(appID)
        wire.delete_data = deleteData ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}
