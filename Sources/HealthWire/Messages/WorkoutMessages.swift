import COpenHealthProto
public import Foundation
public import HealthModel

// The payloads of the workout and route methods (proto/openhealth/v1/workouts.proto).

/// AddSamplesToWorkoutRequest: `add(_ samples:, to workout:)`.
public struct WorkoutAssociation: WireMessage, Equatable {
    public var workoutUUID: UUID
    public var sampleUUIDs: [UUID]

    public init(workoutUUID: UUID, sampleUUIDs: [UUID]) {
        self.workoutUUID = workoutUUID
        self.sampleUUIDs = sampleUUIDs
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__AddSamplesToWorkoutRequest.self, from: bytes) { wire in
            guard wire.n_sample_uuids <= WireLimits.maxObjectsPerCall else {
                throw WireDecodeError.invalidField("more than \(WireLimits.maxObjectsPerCall) samples in one call")
            }
            return WorkoutAssociation(workoutUUID: try WireUUID.read(wire.workout_uuid, "workout uuid"),
                                      sampleUUIDs: try WireUUID.readAll(wire.sample_uuids, count: wire.n_sample_uuids))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__AddSamplesToWorkoutRequest.initialized()
        wire.workout_uuid = arena.bytes(workoutUUID.bytes)
        let values = sampleUUIDs.map { arena.bytes($0.bytes) }
        wire.n_sample_uuids = values.count
        wire.sample_uuids = arena.array(values)
        return ProtobufCodec.encode(wire)
    }
}

/// InsertRouteDataRequest: one chunk of an unfinished route.
public struct RouteDataChunk: WireMessage, Equatable {
    /// Chosen by the SDK's builder; the broker scopes it to the calling app.
    public var builderID: UUID
    public var locations: [RouteLocation]

    public init(builderID: UUID, locations: [RouteLocation]) {
        self.builderID = builderID
        self.locations = locations
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__InsertRouteDataRequest.self, from: bytes) { wire in
            guard wire.n_locations <= WireLimits.maxLocationsPerMessage else {
                throw WireDecodeError.invalidField("more than \(WireLimits.maxLocationsPerMessage) locations in one call")
            }
            return RouteDataChunk(builderID: try WireUUID.read(wire.builder_id, "builder id"),
                                  locations: WireRead.messages(wire.locations, count: wire.n_locations).map(LocationWire.read))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__InsertRouteDataRequest.initialized()
        wire.builder_id = arena.bytes(builderID.bytes)
        (wire.n_locations, wire.locations) = LocationWire.buildAll(locations, in: arena)
        return ProtobufCodec.encode(wire)
    }
}

/// InsertRouteDataResponse: how many locations the unfinished route holds.
public struct RouteLocationCount: WireMessage, Equatable {
    public var count: Int

    public init(_ count: Int) { self.count = count }

    public init(wire bytes: [UInt8]) throws {
        count = try ProtobufCodec.withDecoded(Openhealth__V1__InsertRouteDataResponse.self, from: bytes) { wire in
            guard let count = Int(exactly: wire.location_count) else { throw WireDecodeError.invalidField("count out of range") }
            return count
        }
    }

    public func wireBytes() -> [UInt8] {
        var wire = Openhealth__V1__InsertRouteDataResponse.initialized()
        wire.location_count = UInt64(max(0, count))
        return ProtobufCodec.encode(wire)
    }
}

/// FinishRouteRequest: store the builder's route with its workout.
public struct RouteFinish: WireMessage, Equatable {
    public var builderID: UUID
    public var workoutUUID: UUID
    public var metadata: [String: MetadataValue]
    public var device: DeviceRecord?

    public init(builderID: UUID, workoutUUID: UUID, metadata: [String: MetadataValue] = [:], device: DeviceRecord? = nil) {
        self.builderID = builderID
        self.workoutUUID = workoutUUID
        self.metadata = metadata
        self.device = device
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__FinishRouteRequest.self, from: bytes) { wire in
            RouteFinish(builderID: try WireUUID.read(wire.builder_id, "builder id"),
                        workoutUUID: try WireUUID.read(wire.workout_uuid, "workout uuid"),
                        metadata: try MetadataWire.readAll(wire.metadata, count: wire.n_metadata),
                        device: wire.device.map { DeviceWire.read($0.pointee) })
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__FinishRouteRequest.initialized()
        wire.builder_id = arena.bytes(builderID.bytes)
        wire.workout_uuid = arena.bytes(workoutUUID.bytes)
        (wire.n_metadata, wire.metadata) = MetadataWire.buildAll(metadata, in: arena)
        if let device { wire.device = DeviceWire.build(device, in: arena) }
        return ProtobufCodec.encode(wire)
    }
}

/// FinishRouteResponse: the route sample as stored.
public struct FinishedRoute: WireMessage, Equatable {
    public var route: SampleRecord

    public init(_ route: SampleRecord) { self.route = route }

    public init(wire bytes: [UInt8]) throws {
        route = try ProtobufCodec.withDecoded(Openhealth__V1__FinishRouteResponse.self, from: bytes) { wire in
            guard let route = wire.route?.pointee else { throw WireDecodeError.invalidField("route missing") }
            return try SampleWire.read(route)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__FinishRouteResponse.initialized()
        var builder = SampleWireBuilder(in: arena)
        wire.route = builder.build(route)
        return ProtobufCodec.encode(wire)
    }
}

/// RouteDataRequest: which route's locations to stream.
public struct RouteDataQuery: WireMessage, Equatable {
    public var routeUUID: UUID

    public init(routeUUID: UUID) { self.routeUUID = routeUUID }

    public init(wire bytes: [UInt8]) throws {
        routeUUID = try ProtobufCodec.withDecoded(Openhealth__V1__RouteDataRequest.self, from: bytes) { wire in
            try WireUUID.read(wire.route_uuid, "route uuid")
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__RouteDataRequest.initialized()
        wire.route_uuid = arena.bytes(routeUUID.bytes)
        return ProtobufCodec.encode(wire)
    }
}

/// RouteDataBatch: locations in time order; `done` on the last batch.
public struct RouteLocationBatch: WireMessage, Equatable {
    public var locations: [RouteLocation]
    public var done: Bool

    public init(_ locations: [RouteLocation], done: Bool) {
        self.locations = locations
        self.done = done
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__RouteDataBatch.self, from: bytes) { wire in
            RouteLocationBatch(WireRead.messages(wire.locations, count: wire.n_locations).map(LocationWire.read),
                               done: wire.done != 0)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__RouteDataBatch.initialized()
        (wire.n_locations, wire.locations) = LocationWire.buildAll(locations, in: arena)
        wire.done = done ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}

enum LocationWire {
    static func buildAll(_ locations: [RouteLocation], in arena: WireArena)
        -> (count: Int, messages: UnsafeMutablePointer<UnsafeMutablePointer<Openhealth__V1__Location>?>?) {
        let built = locations.map { location in
            arena.message { (wire: inout Openhealth__V1__Location) in
                wire.timestamp_us = location.timestamp.microsecondsSince1970
                wire.latitude = location.latitude
                wire.longitude = location.longitude
                wire.altitude = location.altitude
                wire.horizontal_accuracy = location.horizontalAccuracy
                wire.vertical_accuracy = location.verticalAccuracy
                wire.course = location.course
                wire.speed = location.speed
            }
        }
        return (built.count, arena.messages(built))
    }

    static func read(_ wire: Openhealth__V1__Location) -> RouteLocation {
        RouteLocation(timestamp: Date(microsecondsSince1970: wire.timestamp_us), latitude: wire.latitude,
                      longitude: wire.longitude, altitude: wire.altitude, horizontalAccuracy: wire.horizontal_accuracy,
                      verticalAccuracy: wire.vertical_accuracy, course: wire.course, speed: wire.speed)
    }
}

/// 16-byte UUID fields, refusing any other length with the field's name.
enum WireUUID {
    static func read(_ data: ProtobufCBinaryData, _ field: String) throws(WireDecodeError) -> UUID {
        guard let uuid = UUID(bytes: WireRead.bytes(data)) else { throw .invalidField("\(field) must be 16 bytes") }
        return uuid
    }

    static func readAll(_ data: UnsafeMutablePointer<ProtobufCBinaryData>?, count: Int) throws(WireDecodeError) -> [UUID] {
        guard let data, count > 0 else { return [] }
        return try UnsafeBufferPointer(start: data, count: count).map { (bytes) throws(WireDecodeError) in try read(bytes, "uuid") }
    }
}
