public import Foundation
import HealthWire

/// Deleting objects. An app deletes only objects it saved itself, and needs share permission
/// for their types (without it: `errorAuthorizationNotDetermined` / `errorAuthorizationDenied`,
/// as for saving) — for a correlation, for every type it holds, as a correlation type takes no
/// permission of its own. Deleting a workout deletes its route too; deleting a correlation, its
/// samples.
extension HKHealthStore {
    func brokerDelete(_ object: HKObject) async throws {
        try await delete([object])
    }

    /// Deletes `objects`, all or none. If any of them is not (or no longer) in the store among
    /// this app's objects — deleted already, never saved, or saved by another app — nothing is
    /// deleted and this throws `errorInvalidArgument` ("failed to find some objects for
    /// deletion"), as HealthKit does. An empty array is `errorInvalidArgument` too, as in HealthKit.
    func brokerDelete(_ objects: [HKObject]) async throws {
        guard !objects.isEmpty else {
            throw HKError(.errorInvalidArgument, "no objects to delete: pass at least one object")
        }
        guard objects.count <= WireLimits.maxObjectsPerCall else {
            throw HKError(.errorDataSizeExceeded,
                          "one call deletes at most \(WireLimits.maxObjectsPerCall) objects, got \(objects.count); delete in batches")
        }
        let references = try objects.map { (object) throws(HKError) -> ObjectReference in
            guard let sample = object as? HKSample else {
                throw HKError(.errorInvalidArgument, "only samples can be deleted; \(type(of: object)) is not an HKSample")
            }
            return ObjectReference(typeIdentifier: sample.sampleType.identifier, uuid: sample.uuid)
        }
        let _: DeletedCount = try await connection.call(.deleteObjects, ObjectDeletion(references))
    }

    /// Deletes every object of `objectType` this app saved that matches `predicate`, and returns
    /// how many were deleted (0 when none match; routes deleted with their workouts are not
    /// counted). Other apps' objects are never deleted or counted.
    @discardableResult
    func brokerDeleteObjects(of objectType: HKObjectType, predicate: NSPredicate) async throws -> Int {
        try await deleteMatching(MatchingDeletion(typeIdentifier: objectType.identifier,
                                                  predicate: try SamplePredicate(translating: predicate)))
    }

    func brokerDelete(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        delete([object], withCompletion: completion)
    }

    func brokerDelete(_ objects: [HKObject], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.delete(objects) }
    }

    func brokerDeleteObjects(of objectType: HKObjectType, predicate: NSPredicate,
                             withCompletion completion: @escaping @Sendable (Bool, Int, (any Error)?) -> Void) {
        // NSPredicate is not Sendable; translate it here, before the task.
        let translated = Result { () throws(HKError) in try SamplePredicate(translating: predicate) }
        Task {
            do {
                let count = try await deleteMatching(MatchingDeletion(typeIdentifier: objectType.identifier,
                                                                      predicate: try translated.get()))
                completion(true, count, nil)
            } catch {
                completion(false, 0, error)
            }
        }
    }

    private func deleteMatching(_ deletion: MatchingDeletion) async throws(HKError) -> Int {
        let deleted: DeletedCount = try await connection.call(.deleteMatching, deletion)
        return deleted.count
    }
}
