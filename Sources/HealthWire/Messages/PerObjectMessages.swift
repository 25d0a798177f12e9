public import Foundation
import COpenHealthProto
public import HealthModel

/// per_object.proto `PerObjectPrompt`: an app's pending per-object read request as the manager
/// shows it, with every object it may pick from.
public struct PerObjectPrompt: Sendable, Equatable {
    public var requestID: UInt64
    public var appID: String
    public var appDisplayName: String
    public var readUsageDescription: String
    public var typeIdentifier: String
    public var candidates: [SampleRecord]

    public init(requestID: UInt64, appID: String, appDisplayName: String, readUsageDescription: String, typeIdentifier: String,
                candidates: [SampleRecord]) {
        self.requestID = requestID
        self.appID = appID
        self.appDisplayName = appDisplayName
        self.readUsageDescription = readUsageDescription
        self.typeIdentifier = typeIdentifier
        self.candidates = candidates
    }
}

/// per_object.proto `PerObjectPromptList`: the pending per-object requests.
public struct PerObjectPromptList: WireMessage, Equatable {
    public var prompts: [PerObjectPrompt]

    public init(_ prompts: [PerObjectPrompt]) { self.prompts = prompts }

    public init(wire bytes: [UInt8]) throws {
        prompts = try ProtobufCodec.withDecoded(Openhealth__V1__PerObjectPromptList.self, from: bytes) { wire in
            try WireRead.messages(wire.prompts, count: wire.n_prompts).map { prompt in
                guard prompt.n_candidates <= WireLimits.maxSamplesPerSave else {
                    throw WireDecodeError.invalidField("more than \(WireLimits.maxSamplesPerSave) candidates in one prompt")
                }
                return PerObjectPrompt(requestID: prompt.request_id, appID: WireRead.string(prompt.app_id),
                                       appDisplayName: WireRead.string(prompt.app_display_name),
                                       readUsageDescription: WireRead.string(prompt.read_usage_description),
                                       typeIdentifier: WireRead.string(prompt.type_identifier),
                                       candidates: try WireRead.messages(prompt.candidates, count: prompt.n_candidates).map(SampleWire.read))
            }
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__PerObjectPromptList.initialized()
        var builder = SampleWireBuilder(in: arena)
        let built = prompts.map { prompt in
            arena.message { (message: inout Openhealth__V1__PerObjectPrompt) in
                message.request_id = prompt.requestID
                message.app_id = arena.string(prompt.appID)
                message.app_display_name = arena.string(prompt.appDisplayName)
                message.read_usage_description = arena.string(prompt.readUsageDescription)
                message.type_identifier = arena.string(prompt.typeIdentifier)
                let candidates = builder.build(prompt.candidates)
                message.n_candidates = candidates.count
                message.candidates = arena.messages(candidates)
            }
        }
        wire.n_prompts = built.count
        wire.prompts = arena.messages(built)
        return ProtobufCodec.encode(wire)
    }
}

/// per_object.proto `ObjectReadGrants`: the manager's answer to a per-object request
/// (`requestID`, the allowed objects), a revocation (`appID` with objects, or `all`), or a
/// listing (`appID`; the reply holds the granted objects).
public struct ObjectReadGrants: WireMessage, Equatable {
    public var requestID: UInt64
    public var appID: String
    public var uuids: [UUID]
    public var all: Bool

    public init(requestID: UInt64 = 0, appID: String = "", uuids: [UUID] = [], all: Bool = false) {
        self.requestID = requestID
        self.appID = appID
        self.uuids = uuids
        self.all = all
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ObjectReadGrants.self, from: bytes) { wire in
            guard wire.n_uuids <= WireLimits.maxSamplesPerSave else {
                throw WireDecodeError.invalidField("more than \(WireLimits.maxSamplesPerSave) objects in one grant change")
            }
            var uuids: [UUID] = []
            for index in 0..<wire.n_uuids {
                guard let uuid = UUID(bytes: WireRead.bytes(wire.uuids[index])) else { throw WireDecodeError.invalidField("an object UUID is not 16 bytes") }
                uuids.append(uuid)
            }
            return ObjectReadGrants(requestID: wire.request_id, appID: WireRead.string(wire.app_id), uuids: uuids, all: wire.all != 0)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ObjectReadGrants.initialized()
        wire.request_id = requestID
        wire.app_id = arena.string(appID)
        wire.n_uuids = uuids.count
        wire.uuids = arena.array(uuids.map { arena.bytes(of: $0) })
        wire.all = all ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}
