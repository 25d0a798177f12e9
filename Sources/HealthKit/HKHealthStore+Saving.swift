import HealthWire

extension HKHealthStore {
    /// Saves one object. On success its `uuid` is the one the broker assigned.
    func brokerSave(_ object: HKObject) async throws {
        try await save([object])
    }

    /// Saves objects all or nothing (one broker transaction). On success each object's `uuid`
    /// is the one the broker assigned. Fails with `errorAuthorizationNotDetermined` /
    /// `errorAuthorizationDenied` for a type without share permission, `errorInvalidArgument`
    /// for an invalid sample (checked here first, then authoritatively by the broker), and
    /// `errorDataSizeExceeded` past the protocol's per-save limits (split the array).
    func brokerSave(_ objects: [HKObject]) async throws {
        let samples = try objects.map { (object) throws(HKError) -> HKSample in
            guard let sample = object as? HKSample else {
                throw HKError(.errorInvalidArgument, "only samples can be saved; \(type(of: object)) is not an HKSample")
            }
            return sample
        }
        guard !samples.isEmpty else { return }
        guard samples.count <= WireLimits.maxSamplesPerSave else {
            throw HKError(.errorDataSizeExceeded,
                          "one save takes at most \(WireLimits.maxSamplesPerSave) objects, got \(samples.count); save in batches")
        }
        let records = try samples.map { (sample) throws(HKError) -> SampleRecord in try sample.saveRecord() }
        // The same checks and errors as healthd's, early and without building a canonical copy:
        // converting to canonical units is healthd's (it does it again, authoritatively).
        try SampleValidator.check(batch: records)
        let payload = SampleList(records).wireBytes()
        // The frame also holds the method name and a header; 1 KiB covers both with room.
        guard payload.count <= WireLimits.maxFrameBytes - 1024 else {
            throw HKError(.errorDataSizeExceeded,
                          "these \(samples.count) objects encode to \(payload.count) bytes, more than one message may carry; save in smaller batches")
        }
        let saved: SavedUUIDs = try await connection.call(.save, payload: payload)
        // One UUID per object, a correlation's samples right after it. A batch without
        // correlations is its own list (no array per sample).
        let savedObjects = samples.contains { $0 is HKCorrelation } ? samples.flatMap(\.savedObjects) : samples
        guard saved.uuids.count == savedObjects.count else {
            throw HKError(.unknownError, "healthd acknowledged \(saved.uuids.count) UUIDs for \(savedObjects.count) saved objects")
        }
        for (object, uuid) in zip(savedObjects, saved.uuids) { object.assignBrokerUUID(uuid) }
    }

    func brokerSave(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        save([object], withCompletion: completion)
    }

    func brokerSave(_ objects: [HKObject], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.save(objects) }
    }
}
