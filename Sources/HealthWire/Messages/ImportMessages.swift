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
    /// Routes of workouts in `samples`, by index.
    public var routes: [ImportedRoute]
    /// Indexes into `samples` of the samples whose sync identifier the importer derived from their
    /// type and start among the rest (`dated_identities`; healthd's `SyncLookup`), ascending.
    public var datedIdentities: [Int]

    public init(origin: String, sourceName: String, sourceVersion: String?, samples: [SampleRecord], routes: [ImportedRoute] = [],
                datedIdentities: [Int] = []) {
        self.origin = origin
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.samples = samples
        self.routes = routes
        self.datedIdentities = datedIdentities
    }

    /// One entry per sample: whether its identity is dated.
    public var datedMask: [Bool] {
        var mask = [Bool](repeating: false, count: samples.count)
        for index in datedIdentities where mask.indices.contains(index) { mask[index] = true }
        return mask
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ImportSamplesRequest.self, from: bytes) { wire in
            guard wire.n_samples <= WireLimits.maxSamplesPerSave else {
                throw WireDecodeError.invalidField("more than \(WireLimits.maxSamplesPerSave) samples in one message")
            }
            let version = WireRead.string(wire.source_version)
            let routes = WireRead.messages(wire.routes, count: wire.n_routes)
            guard routes.count <= WireLimits.maxSamplesPerSave else {
                throw WireDecodeError.invalidField("more than \(WireLimits.maxSamplesPerSave) routes in one message")
            }
            // Each names a sample of this message, once, in ascending order: so the list is never
            // longer than `samples` and a mark cannot land on a sample it was not sent with.
            let dated = UnsafeBufferPointer(start: wire.dated_identities, count: wire.n_dated_identities)
            var previous: UInt32?
            for index in dated {
                guard index < wire.n_samples, previous.map({ $0 < index }) ?? true else {
                    throw WireDecodeError.invalidField("dated_identities must name samples of the message, each once, in ascending order")
                }
                previous = index
            }
            return ImportBatch(origin: WireRead.string(wire.origin), sourceName: WireRead.string(wire.source_name),
                               sourceVersion: version.isEmpty ? nil : version,
                               samples: try SampleWire.readAll(wire.samples, count: wire.n_samples),
                               routes: routes.map { route in
                                   ImportedRoute(workoutIndex: Int(route.workout_index),
                                                 locations: WireRead.messages(route.locations, count: route.n_locations).map(LocationWire.read))
                               },
                               datedIdentities: dated.map { Int($0) })
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
        let routeMessages = routes.map { route in
            arena.message { (wire: inout Openhealth__V1__ImportedRoute) in
                wire.workout_index = UInt32(clamping: route.workoutIndex)
                let locations = LocationWire.buildAll(route.locations, in: arena)
                wire.n_locations = locations.count
                wire.locations = locations.messages
            }
        }
        wire.n_routes = routeMessages.count
        wire.routes = arena.messages(routeMessages)
        wire.n_dated_identities = datedIdentities.count
        wire.dated_identities = arena.array(datedIdentities.map { UInt32(clamping: $0) })
        return ProtobufCodec.encode(wire)
    }
}

/// A workout's route in an import: its locations, for the workout at `workoutIndex` of the batch.
public struct ImportedRoute: Sendable, Equatable {
    public var workoutIndex: Int
    public var locations: [RouteLocation]

    public init(workoutIndex: Int, locations: [RouteLocation]) {
        self.workoutIndex = workoutIndex
        self.locations = locations
    }
}

/// ImportSamplesResponse: how many samples were new, and how many the store already held.
public struct ImportOutcome: WireMessage, Equatable {
    public var added: Int
    public var unchanged: Int
    public var routesAdded: Int
    public var routesUnchanged: Int

    public init(added: Int, unchanged: Int, routesAdded: Int = 0, routesUnchanged: Int = 0) {
        self.added = added
        self.unchanged = unchanged
        self.routesAdded = routesAdded
        self.routesUnchanged = routesUnchanged
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ImportSamplesResponse.self, from: bytes) { wire in
            ImportOutcome(added: Int(clamping: wire.added), unchanged: Int(clamping: wire.unchanged),
                          routesAdded: Int(clamping: wire.routes_added), routesUnchanged: Int(clamping: wire.routes_unchanged))
        }
    }

    public func wireBytes() -> [UInt8] {
        var wire = Openhealth__V1__ImportSamplesResponse.initialized()
        wire.added = UInt64(clamping: added)
        wire.unchanged = UInt64(clamping: unchanged)
        wire.routes_added = UInt64(clamping: routesAdded)
        wire.routes_unchanged = UInt64(clamping: routesUnchanged)
        return ProtobufCodec.encode(wire)
    }
}
