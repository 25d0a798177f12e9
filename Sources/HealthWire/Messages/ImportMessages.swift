import COpenHealthProto
public import HealthModel

// The manager's import payloads (proto/openhealth/v1/health_manager.proto, ImportSamples).

/// ImportSamplesRequest: a batch of one foreign source's samples.
public struct ImportBatch: WireMessage, Equatable {
    /// What the data comes from ("Apple Health"); part of the source's name in the store.
    public var origin: String
    public var sourceName: String
    public var sourceVersion: String?
    public var samples: [SampleRecord]

    public init(origin: String, sourceName: String, sourceVersion: String?, samples: [SampleRecord]) {
        self.origin = origin
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.samples = samples
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ImportSamplesRequest.self, from: bytes) { wire in
            guard wire.n_samples <= WireLimits.maxSamplesPerSave else {
                throw WireDecodeError.invalidField("more than \(WireLimits.maxSamplesPerSave) samples in one message")
            }
            let version = WireRead.string(wire.source_version)
            return ImportBatch(origin: WireRead.string(wire.origin), sourceName: WireRead.string(wire.source_name),
                               sourceVersion: version.isEmpty ? nil : version,
                               samples: try WireRead.messages(wire.samples, count: wire.n_samples).map(SampleWire.read))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ImportSamplesRequest.initialized()
        wire.origin = arena.string(origin)
        wire.source_name = arena.string(sourceName)
        wire.source_version = arena.string(sourceVersion ?? "")
        var builder = SampleWireBuilder(in: arena)
        let built = builder.build(samples)
        wire.n_samples = built.count
        wire.samples = arena.messages(built)
        return ProtobufCodec.encode(wire)
    }
}

/// ImportSamplesResponse: how many samples were new, and how many the store already held.
public struct ImportOutcome: WireMessage, Equatable {
    public var added: Int
    public var unchanged: Int

    public init(added: Int, unchanged: Int) {
        self.added = added
        self.unchanged = unchanged
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ImportSamplesResponse.self, from: bytes) { wire in
            ImportOutcome(added: Int(clamping: wire.added), unchanged: Int(clamping: wire.unchanged))
        }
    }

    public func wireBytes() -> [UInt8] {
        var wire = Openhealth__V1__ImportSamplesResponse.initialized()
        wire.added = UInt64(clamping: added)
        wire.unchanged = UInt64(clamping: unchanged)
        return ProtobufCodec.encode(wire)
    }
}
