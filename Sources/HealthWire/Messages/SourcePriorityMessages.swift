import COpenHealthProto
public import HealthModel

// The manager's source-priority payloads (proto/openhealth/v1/statistics.proto).

/// ListSourcesRequest: the sources of one type, or (empty identifier) of the whole store.
public struct SourceListRequest: WireMessage, Equatable {
    public var typeIdentifier: String

    public init(typeIdentifier: String) { self.typeIdentifier = typeIdentifier }

    public init(wire bytes: [UInt8]) throws {
        typeIdentifier = try ProtobufCodec.withDecoded(Openhealth__V1__ListSourcesRequest.self, from: bytes) { WireRead.string($0.type) }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ListSourcesRequest.initialized()
        wire.type = arena.string(typeIdentifier)
        return ProtobufCodec.encode(wire)
    }
}

/// ListSourcesResponse: every source of a type as the manager shows it (not the app-facing SourceList).
public struct SourceEntryList: WireMessage, Equatable {
    public var sources: [SourceEntry]

    public init(_ sources: [SourceEntry]) { self.sources = sources }

    public init(wire bytes: [UInt8]) throws {
        sources = try ProtobufCodec.withDecoded(Openhealth__V1__ListSourcesResponse.self, from: bytes) { wire in
            WireRead.messages(wire.sources, count: wire.n_sources).map { entry in
                SourceEntry(appID: WireRead.string(entry.app_id), name: WireRead.string(entry.name),
                            installed: entry.installed != 0, sampleCount: Int(clamping: entry.sample_count),
                            orderedByUser: entry.ordered_by_user != 0)
            }
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ListSourcesResponse.initialized()
        let entries = sources.map { entry in
            arena.message { (wire: inout Openhealth__V1__SourceEntry) in
                wire.app_id = arena.string(entry.appID)
                wire.name = arena.string(entry.name)
                wire.installed = entry.installed ? 1 : 0
                wire.sample_count = UInt64(clamping: entry.sampleCount)
                wire.ordered_by_user = entry.orderedByUser ? 1 : 0
            }
        }
        wire.n_sources = entries.count
        wire.sources = arena.messages(entries)
        return ProtobufCodec.encode(wire)
    }
}

/// SetSourcePriorityRequest: a type's new order (highest first), or a reset to the default.
public struct SourcePriorityChange: WireMessage, Equatable {
    public var typeIdentifier: String
    public var appIDs: [String]
    public var reset: Bool

    public init(typeIdentifier: String, appIDs: [String]) {
        self.typeIdentifier = typeIdentifier
        self.appIDs = appIDs
        reset = false
    }

    public static func reset(_ typeIdentifier: String) -> SourcePriorityChange {
        var change = SourcePriorityChange(typeIdentifier: typeIdentifier, appIDs: [])
        change.reset = true
        return change
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__SetSourcePriorityRequest.self, from: bytes) { wire in
            var change = SourcePriorityChange(typeIdentifier: WireRead.string(wire.type),
                                              appIDs: WireRead.strings(wire.app_ids, count: wire.n_app_ids))
            change.reset = wire.reset != 0
            return change
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__SetSourcePriorityRequest.initialized()
        wire.type = arena.string(typeIdentifier)
        wire.n_app_ids = appIDs.count
        wire.app_ids = arena.strings(appIDs)
        wire.reset = reset ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}
