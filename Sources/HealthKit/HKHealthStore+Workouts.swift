import HealthWire

extension HKHealthStore {
    /// Associates `samples` with `workout`. Both must have been saved by this app (the broker
    /// refuses anything else exactly as it refuses a UUID that does not exist) and the app needs
    /// share permission for the workout type and the samples' types.
    func brokerAdd(_ samples: [HKSample], to workout: HKWorkout) async throws {
        guard !samples.isEmpty else { return }
        guard samples.count <= WireLimits.maxObjectsPerCall else {
            throw HKError(.errorDataSizeExceeded,
                          "one call adds at most \(WireLimits.maxObjectsPerCall) samples to a workout, got \(samples.count); add them in batches")
        }
        let association = WorkoutAssociation(workoutUUID: workout.uuid, sampleUUIDs: samples.map(\.uuid))
        let _: EmptyMessage = try await connection.call(.addSamplesToWorkout, association)
    }

    /// HealthKit's async name for `add(_:to:)`.
    func brokerAddSamples(_ samples: [HKSample], to workout: HKWorkout) async throws {
        try await add(samples, to: workout)
    }

    func brokerAdd(_ samples: [HKSample], to workout: HKWorkout,
                   completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.add(samples, to: workout) }
    }
}
