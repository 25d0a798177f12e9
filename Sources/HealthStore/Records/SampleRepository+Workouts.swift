public import Foundation
import GRDB
public import HealthModel

/// Workout associations (`add(_:to:)`) and the workouts a reader may name in a predicate.
extension SampleRepository {
    /// The types of `appID`'s own objects among `uuids`, so the broker can check share permission
    /// before associating them. UUIDs of other apps' objects and unknown UUIDs are simply absent.
    public func ownObjectTypes(_ uuids: [UUID], appID: String) throws -> [UUID: String] {
        try writer.read { db in
            var types: [UUID: String] = [:]
            for (uuid, type) in zip(uuids, try Self.ownObjectTypes(uuids, appID: appID, db)) where type != nil {
                types[uuid] = type
            }
            return types
        }
    }

    /// The type of each of `uuids` that is `appID`'s own object, nil for the others (in order).
    static func ownObjectTypes(_ uuids: [UUID], appID: String, _ db: Database) throws -> [String?] {
        try uuids.map { try OwnedObjects.row(db, uuid: $0, appID: appID)?.typeIdentifier }
    }

    /// Associates `appID`'s samples `sampleUUIDs` with its workout `workoutUUID`, durably, all or
    /// none. Associating a sample twice is not an error. Another app's object, or a UUID that
    /// does not exist, fails alike (`errorInvalidArgument`, naming its position only).
    public func associate(_ sampleUUIDs: [UUID], with workoutUUID: UUID, appID: String) async throws {
        try await commits.submit(returning: { db in
            try Self.associateOwned(sampleUUIDs, with: workoutUUID, appID: appID, db)
        })
    }

    /// `associate` inside the caller's transaction (also the pending journal's merge of an
    /// association made while locked).
    static func associateOwned(_ sampleUUIDs: [UUID], with workoutUUID: UUID, appID: String, _ db: Database) throws {
        guard let workoutID = try OwnedObjects.rowID(db, uuid: workoutUUID, typeIdentifier: HKWorkoutTypeIdentifier, appID: appID) else {
            throw HKError(.errorInvalidArgument, "the workout was not found among the workouts this app saved")
        }
        // A change number of its own (v64): associating an older sample is a change a reading
        // bounded by an earlier one must not see (`Visibility.through`).
        let change = try ObjectDeleter.nextChange(db)
        for (index, uuid) in sampleUUIDs.enumerated() {
            guard let sample = try OwnedObjects.row(db, uuid: uuid, appID: appID) else {
                throw HKError(.errorInvalidArgument, "sample \(index + 1) was not found among the samples this app saved")
            }
            guard sample.typeIdentifier != HKWorkoutTypeIdentifier else {
                throw HKError(.errorInvalidArgument, "sample \(index + 1) is a workout; workouts cannot be added to workouts")
            }
            try WorkoutAssociation.add(db, workoutID: workoutID, sampleID: sample.id,
                                       isRoute: sample.typeIdentifier == HKWorkoutRouteTypeIdentifier, change: change)
        }
    }
}
