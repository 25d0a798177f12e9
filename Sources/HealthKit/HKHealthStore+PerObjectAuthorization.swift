import HealthWire

extension HKHealthStore {
    /// HealthKit's `requestPerObjectReadAuthorization(for:predicate:)` (iOS 16): asks the user (in
    /// healthctl, `healthctl object-requests`) which of the objects of `objectType` matching
    /// `predicate` this app may read; returns once they answered. As in HealthKit the user is asked
    /// every time, whatever was granted before, and success means "the user was asked": queries
    /// then return the objects the user picked, plus the app's own. For a type that does not
    /// require per-object authorization this fails with `errorInvalidArgument` (use
    /// `requestAuthorization(toShare:read:)`). While the store is locked it fails with
    /// `errorDatabaseInaccessible`.
    public func requestPerObjectReadAuthorization(for objectType: HKObjectType, predicate: NSPredicate?) async throws {
        try await requestPerObjectRead(Self.perObjectSpec(objectType, predicate))
    }

    @preconcurrency
    public func requestPerObjectReadAuthorization(for objectType: HKObjectType, predicate: NSPredicate?,
                                                  completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        // The predicate is translated here, on the caller's side: NSPredicate is not Sendable.
        let spec: SampleQuerySpec
        do {
            spec = try Self.perObjectSpec(objectType, predicate)
        } catch {
            completion(false, error)
            return
        }
        complete(completion) { try await self.requestPerObjectRead(spec) }
    }

    private func requestPerObjectRead(_ spec: SampleQuerySpec) async throws {
        let _: EmptyMessage = try await connection.call(.requestPerObjectReadAuthorization, spec)
    }

    private static func perObjectSpec(_ objectType: HKObjectType, _ predicate: NSPredicate?) throws(HKError) -> SampleQuerySpec {
        // By identifier: the medication type is an HKObjectType, as Apple's, while the store
        // keeps medications as objects of a sample type (`StoredUserAnnotatedMedicationType`).
        guard objectType.requiresPerObjectAuthorization(),
              let sampleType = HKObjectType.type(forIdentifier: objectType.identifier) as? HKSampleType else {
            throw HKError(.errorInvalidArgument, "\(objectType.identifier) does not require per-object authorization; "
                          + "request it with requestAuthorization(toShare:read:)")
        }
        return try HKSampleQuery.spec(type: sampleType, predicate: predicate, limit: HKObjectQueryNoLimit, sortDescriptors: [])
    }
}
