import HealthWire

extension HKHealthStore {
    /// Asks the user (in healthctl) for the given permissions. Returns at once when every type
    /// was already decided; otherwise it waits until the user answers, which may take minutes.
    /// Success means the user was asked, not that access was granted (as in HealthKit). Fails
    /// with `errorInvalidArgument` when the app's manifest lacks the usage description for a
    /// requested access kind, or a type is unknown. A share set naming types apps may never write
    /// (correlation types, Apple-computed types such as appleExerciseTime: `AppWritability`) fails
    /// here, before anything is sent or shown, with HealthKit's message ("Authorization to share the
    /// following types is disallowed: …"; HealthKit raises it as NSInvalidArgumentException); so
    /// does a read set naming a type read per object (`visionPrescriptionType()`: "Authorization to
    /// read the following types is disallowed: …"; use `requestPerObjectReadAuthorization`).
    func brokerRequestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws {
        try Self.checkSets(share: typesToShare, read: typesToRead)
        let _: EmptyMessage = try await connection.call(.requestAuthorization, Self.request(typesToShare, typesToRead))
    }

    func brokerRequestAuthorization(toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
                                    completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.requestAuthorization(toShare: typesToShare ?? [], read: typesToRead ?? []) }
    }

    /// Whether `requestAuthorization` for these types would ask the user anything.
    public func getRequestStatusForAuthorization(toShare typesToShare: Set<HKSampleType>,
                                                 read typesToRead: Set<HKObjectType>) async throws -> HKAuthorizationRequestStatus {
        try Self.checkSets(share: typesToShare, read: typesToRead)
        let status: StatusValue = try await connection.call(.getRequestStatus, Self.request(typesToShare, typesToRead))
        return try status.decoded(as: HKAuthorizationRequestStatus.self)
    }

    /// HealthKit's async spelling of `getRequestStatusForAuthorization` (iOS 15):
    /// `.shouldRequest` when a request for these types would ask the user anything.
    func brokerStatusForAuthorizationRequest(toShare typesToShare: Set<HKSampleType>,
                                             read typesToRead: Set<HKObjectType>) async throws -> HKAuthorizationRequestStatus {
        try await getRequestStatusForAuthorization(toShare: typesToShare, read: typesToRead)
    }

    func brokerGetRequestStatusForAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>,
                                                completion: @escaping @Sendable (HKAuthorizationRequestStatus, (any Error)?) -> Void) {
        Task {
            do {
                completion(try await statusForAuthorizationRequest(toShare: typesToShare, read: typesToRead), nil)
            } catch {
                completion(.unknown, error)
            }
        }
    }

    /// The app's permission to *share* (save) `type`. As in HealthKit, read permission is never
    /// revealed: a read-only type reports its (absent) share status.
    ///
    /// Synchronous like HealthKit's, so it blocks the calling thread for one round-trip to
    /// healthd (`BrokerConnection.callBlocking`: safe from the main thread and from async code). It cannot
    /// throw; when the broker cannot be asked it answers `.notDetermined`, the status under
    /// which a save fails and a request would prompt.
    func brokerAuthorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus {
        let status = try? connection.callBlocking(.authorizationStatus, TypeIdentifierMessage(type.identifier),
                                                  returning: StatusValue.self).decoded(as: HKAuthorizationStatus.self)
        return status ?? .notDetermined
    }

    /// The SDK's copy of healthd's first check of a request (which healthd makes again whatever
    /// the SDK sends), so that code written for Apple fails the same way without a round-trip.
    /// HealthKit's refusals before anything is sent: types apps may not share (`AppWritability`),
    /// then types read per object in the read set (`PerObjectAuthorization`: vision prescriptions,
    /// "Authorization to read the following types is disallowed: …").
    private static func checkSets(share: Set<HKSampleType>, read: Set<HKObjectType>) throws(HKError) {
        if let refusal = AppWritability.shareRefusal(share.map(\.identifier)) { throw refusal }
        if let refusal = PerObjectAuthorization.readRefusal(read.map(\.identifier)) { throw refusal }
    }

    /// Identifiers sorted, so a request's bytes do not depend on set iteration order.
    private static func request(_ share: Set<HKSampleType>, _ read: Set<HKObjectType>) -> AuthorizationTypes {
        AuthorizationTypes(share: share.map(\.identifier).sorted(), read: read.map(\.identifier).sorted())
    }
}
