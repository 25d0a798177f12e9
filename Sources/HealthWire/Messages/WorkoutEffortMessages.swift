import COpenHealthProto
public import Foundation
public import HealthModel

// The payloads of the workout effort methods (proto/openhealth/v1/workout_effort.proto) and the
// predicate node 33 (kind_predicates.proto).

/// WorkoutEffortRelationRequest: `relateWorkoutEffortSample` / `unrelateWorkoutEffortSample`.
public struct WorkoutEffortRelationChange: WireMessage, Equatable {
    public var sampleUUID: UUID
    public var workoutUUID: UUID
    /// nil: the workout itself.
    public var activityUUID: UUID?

    public init(sampleUUID: UUID, workoutUUID: UUID, activityUUID: UUID?) {
        self.sampleUUID = sampleUUID
        self.workoutUUID = workoutUUID
        self.activityUUID = activityUUID
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__WorkoutEffortRelationRequest.self, from: bytes) { wire in
            WorkoutEffortRelationChange(sampleUUID: try WireUUID.read(wire.sample_uuid, "sample uuid"),
                                        workoutUUID: try WireUUID.read(wire.workout_uuid, "workout uuid"),
                                        activityUUID: try WorkoutEffortWire.optionalUUID(wire.activity_uuid, "activity uuid"))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__WorkoutEffortRelationRequest.initialized()
        wire.sample_uuid = arena.bytes(sampleUUID.bytes)
        wire.workout_uuid = arena.bytes(workoutUUID.bytes)
        if let activityUUID { wire.activity_uuid = arena.bytes(activityUUID.bytes) }
        return ProtobufCodec.encode(wire)
    }
}

/// WorkoutEffortQueryRequest: HKWorkoutEffortRelationshipQuery's predicate (on the workouts),
/// option and anchor, and whether it keeps running.
public struct WorkoutEffortQuery: WireMessage, Equatable {
    public var predicate: SamplePredicate?
    public var mostRelevant: Bool
    /// An opaque anchor healthd issued earlier; empty for "from the beginning".
    public var anchor: [UInt8]
    /// Whether healthd keeps answering changes until the call is cancelled.
    public var longRunning: Bool

    public init(predicate: SamplePredicate?, mostRelevant: Bool, anchor: [UInt8] = [], longRunning: Bool = false) {
        self.predicate = predicate
        self.mostRelevant = mostRelevant
        self.anchor = anchor
        self.longRunning = longRunning
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__WorkoutEffortQueryRequest.self, from: bytes) { wire in
            guard wire.anchor.len <= AnchoredQuerySpec.maxAnchorBytes else {
                throw WireDecodeError.invalidField("anchor longer than \(AnchoredQuerySpec.maxAnchorBytes) bytes")
            }
            return WorkoutEffortQuery(predicate: try wire.predicate.flatMap { (p) throws(WireDecodeError) in try PredicateWire.read(p.pointee) },
                                      mostRelevant: wire.most_relevant != 0, anchor: WireRead.bytes(wire.anchor),
                                      longRunning: wire.long_running != 0)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__WorkoutEffortQueryRequest.initialized()
        if let predicate { wire.predicate = PredicateWire.build(predicate, in: arena) }
        wire.most_relevant = mostRelevant ? 1 : 0
        wire.anchor = arena.bytes(anchor)
        wire.long_running = longRunning ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}

/// WorkoutEffortQueryResponse: one delivery of the relations the caller can read, and the anchor
/// to continue from. Bounded on the way in: at most `maxObjectsPerCall` relations and as many
/// sample UUIDs in all, as healthd sends, and an anchor no longer than an anchored query's.
public struct WorkoutEffortRelations: WireMessage, Equatable {
    public var relations: [WorkoutEffortRelation]
    public var anchor: [UInt8]

    public init(_ relations: [WorkoutEffortRelation], anchor: [UInt8] = []) {
        self.relations = relations
        self.anchor = anchor
    }

    public init(wire bytes: [UInt8]) throws {
        (relations, anchor) = try ProtobufCodec.withDecoded(Openhealth__V1__WorkoutEffortQueryResponse.self, from: bytes) { wire in
            guard wire.anchor.len <= AnchoredQuerySpec.maxAnchorBytes else {
                throw WireDecodeError.invalidField("anchor longer than \(AnchoredQuerySpec.maxAnchorBytes) bytes")
            }
            guard wire.n_relationships <= WireLimits.maxObjectsPerCall else {
                throw WireDecodeError.invalidField("more than \(WireLimits.maxObjectsPerCall) workout effort relationships")
            }
            var sampleCount = 0
            let relations = try WireRead.messages(wire.relationships, count: wire.n_relationships).map { (row) throws(WireDecodeError) in
                sampleCount += row.n_sample_uuids
                guard sampleCount <= WireLimits.maxObjectsPerCall else {
                    throw .invalidField("more than \(WireLimits.maxObjectsPerCall) related samples")
                }
                return WorkoutEffortRelation(workoutUUID: try WireUUID.read(row.workout_uuid, "workout uuid"),
                                             activityUUID: try WorkoutEffortWire.optionalUUID(row.activity_uuid, "activity uuid"),
                                             sampleUUIDs: try WireUUID.readAll(row.sample_uuids, count: row.n_sample_uuids))
            }
            return (relations, WireRead.bytes(wire.anchor))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__WorkoutEffortQueryResponse.initialized()
        let rows = relations.map { relation in
            arena.message { (row: inout Openhealth__V1__WorkoutEffortRelationshipRow) in
                row.workout_uuid = arena.bytes(relation.workoutUUID.bytes)
                if let activity = relation.activityUUID { row.activity_uuid = arena.bytes(activity.bytes) }
                let samples = relation.sampleUUIDs.map { arena.bytes($0.bytes) }
                row.n_sample_uuids = samples.count
                row.sample_uuids = arena.array(samples)
            }
        }
        wire.n_relationships = rows.count
        wire.relationships = arena.messages(rows)
        wire.anchor = arena.bytes(anchor)
        return ProtobufCodec.encode(wire)
    }
}

enum WorkoutEffortWire {
    /// An optional UUID field: empty is absent, 16 bytes a UUID, anything else refused.
    static func optionalUUID(_ data: ProtobufCBinaryData, _ field: String) throws(WireDecodeError) -> UUID? {
        data.len == 0 ? nil : try WireUUID.read(data, field)
    }

    static func buildPredicate(workout: UUID, activity: UUID?,
                               in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__WorkoutEffortPredicate> {
        arena.message { (node: inout Openhealth__V1__WorkoutEffortPredicate) in
            node.workout_uuid = arena.bytes(workout.bytes)
            if let activity { node.activity_uuid = arena.bytes(activity.bytes) }
        }
    }

    static func readPredicate(_ node: Openhealth__V1__WorkoutEffortPredicate?) throws(WireDecodeError) -> SamplePredicate {
        guard let node else { throw .invalidField("workout effort predicate missing") }
        return .workoutEffort(workout: try WireUUID.read(node.workout_uuid, "workout uuid"),
                              activity: try optionalUUID(node.activity_uuid, "activity uuid"))
    }
}
