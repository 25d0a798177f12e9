public import Foundation

/// The app's access point to the health store, as HealthKit's `HKHealthStore`. Cheap to create:
/// every store in a process shares one connection to healthd, opened on first use.
///
/// Open, as Apple's (an Objective-C class, which Swift imports as `open`): apps' test doubles
/// subclass it — `class MockHealthStore: HKHealthStore { override func execute(_ query: HKQuery) … }`
/// — and hand the mock to code that holds an `HKHealthStore`. Swift on Linux cannot override a
/// method declared in an extension (no Objective-C runtime), so every method a mock overrides
/// is declared here, in the class body, as a one-line forwarder to its implementation in the
/// extension for its concern (`+Queries`, `+Authorization`, `+Saving`, `+Deletion`,
/// `+BackgroundDelivery`, `+PreferredUnits`, `+Characteristics`, `+Workouts`), named `broker…`.
/// Every method reports failures as `HKError` with HealthKit's codes.
///
/// Each completion-handler form runs the matching async form through dynamic dispatch, so a
/// mock that overrides only the async form (as Swift-concurrency code does) serves both
/// spellings — in Apple's SDK the two are one Objective-C method.
///
/// `@unchecked Sendable` because a non-final class cannot be checked: the store's own state is
/// one immutable `let` of a `Sendable` type (`BrokerConnection`) and the mirroring start handler
/// behind a lock, so sharing a store across tasks is as safe as before the class was opened. A subclass that adds mutable state takes
/// on the duty to guard it, as it would with Apple's (also `Sendable`) class.
open class HKHealthStore: NSObject, @unchecked Sendable {
    let connection: BrokerConnection
    private let mirroringLock = NSLock()
    private var mirroringStartHandler: ((HKWorkoutSession) -> Void)?

    /// iOS 17: called on the iPhone when the paired watch starts mirroring a workout session to it
    /// (developer.apple.com/documentation/healthkit/hkhealthstore/workoutsessionmirroringstarthandler).
    /// Kept as set and never called: Linux has no paired device (HKWorkoutSession+Mirroring). A
    /// plain closure type, as the query handler properties here, so that an assignment capturing a
    /// non-Sendable `self` compiles as it does against Apple's SDK (README).
    open var workoutSessionMirroringStartHandler: ((HKWorkoutSession) -> Void)? {
        get { mirroringLock.withLock { mirroringStartHandler } }
        set { mirroringLock.withLock { mirroringStartHandler = newValue } }
    }

    override public init() {
        connection = .shared
        super.init()
    }

    /// A store on a given connection (tests use one end of a socket pair).
    init(connection: BrokerConnection) {
        self.connection = connection
        super.init()
    }

    deinit {
        // A released store posts no more `.HKUserPreferencesDidChange`; the last one closes the feed.
        connection.userPreferences.leave(ObjectIdentifier(self))
    }

    /// Whether healthd can be reached: the descriptor health-sandbox passed in
    /// `OPENHEALTH_SOCKET_FD` is an open socket, or the app socket (`OPENHEALTH_APP_SOCKET`,
    /// else the default path) accepts a connection. Answering it opens the process's shared
    /// connection, which the first store call would open anyway. A `class func`, as Apple's.
    open class func isHealthDataAvailable() -> Bool {
        healthDataAvailable(on: .shared)
    }

    /// `isHealthDataAvailable()` for a given connection (tests point one at nothing).
    static func healthDataAvailable(on connection: BrokerConnection) -> Bool {
        (try? connection.client()) != nil
    }

    /// The earliest start date a sample may have: 1900-01-01T00:00:00Z. healthd refuses older
    /// samples with `errorInvalidArgument`, and the SDK checks before sending.
    open func earliestPermittedSampleDate() -> Date { SampleLimits.earliestPermittedSampleDate }

    /// Apple: true "if the device is set to a locale where clinical records are supported, or if
    /// the user already has clinical records downloaded" (developer.apple.com/documentation/
    /// healthkit/hkhealthstore/supportshealthrecords()). Always true here: healthd stores and
    /// serves clinical records (imported by the user with healthctl) whatever the locale; an app
    /// still needs the health-records entitlement and the user's read permission to see them.
    open func supportsHealthRecords() -> Bool { true }

    // MARK: Queries (HKHealthStore+Queries)

    /// Runs `query`; its handler is called on a background task. See `brokerExecute(_:)`.
    open func execute(_ query: HKQuery) { brokerExecute(query) }

    /// Stops a running query (its broker call is cancelled). See `brokerStop(_:)`.
    open func stop(_ query: HKQuery) { brokerStop(query) }

    // MARK: Authorization (HKHealthStore+Authorization)

    /// Asks the user (in healthctl) for these permissions. See `brokerRequestAuthorization(toShare:read:)`.
    open func requestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws {
        try await brokerRequestAuthorization(toShare: typesToShare, read: typesToRead)
    }

    @preconcurrency
    open func requestAuthorization(toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
                                   completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        brokerRequestAuthorization(toShare: typesToShare, read: typesToRead, completion: completion)
    }

    /// `.shouldRequest` when a request for these types would ask the user anything (iOS 15).
    open func statusForAuthorizationRequest(toShare typesToShare: Set<HKSampleType>,
                                            read typesToRead: Set<HKObjectType>) async throws -> HKAuthorizationRequestStatus {
        try await brokerStatusForAuthorizationRequest(toShare: typesToShare, read: typesToRead)
    }

    @preconcurrency
    open func getRequestStatusForAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>,
                                               completion: @escaping @Sendable (HKAuthorizationRequestStatus, (any Error)?) -> Void) {
        brokerGetRequestStatusForAuthorization(toShare: typesToShare, read: typesToRead, completion: completion)
    }

    /// The app's permission to share `type`; read permission is never revealed.
    /// See `brokerAuthorizationStatus(for:)`.
    open func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus { brokerAuthorizationStatus(for: type) }

    // MARK: Saving (HKHealthStore+Saving)

    open func save(_ object: HKObject) async throws { try await brokerSave(object) }

    /// Saves objects all or nothing. See `brokerSave(_:)`.
    open func save(_ objects: [HKObject]) async throws { try await brokerSave(objects) }

    @preconcurrency
    open func save(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        brokerSave(object, withCompletion: completion)
    }

    @preconcurrency
    open func save(_ objects: [HKObject], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        brokerSave(objects, withCompletion: completion)
    }

    // MARK: Deletion (HKHealthStore+Deletion)

    open func delete(_ object: HKObject) async throws { try await brokerDelete(object) }

    /// Deletes objects this app saved, all or none. See `brokerDelete(_:)`.
    open func delete(_ objects: [HKObject]) async throws { try await brokerDelete(objects) }

    /// Deletes this app's objects of `objectType` matching `predicate`; returns how many.
    @discardableResult
    open func deleteObjects(of objectType: HKObjectType, predicate: NSPredicate) async throws -> Int {
        try await brokerDeleteObjects(of: objectType, predicate: predicate)
    }

    @preconcurrency
    open func delete(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        brokerDelete(object, withCompletion: completion)
    }

    @preconcurrency
    open func delete(_ objects: [HKObject], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        brokerDelete(objects, withCompletion: completion)
    }

    @preconcurrency
    open func deleteObjects(of objectType: HKObjectType, predicate: NSPredicate,
                            withCompletion completion: @escaping @Sendable (Bool, Int, (any Error)?) -> Void) {
        brokerDeleteObjects(of: objectType, predicate: predicate, withCompletion: completion)
    }

    // MARK: Background delivery (HKHealthStore+BackgroundDelivery)

    /// Asks healthd to launch the app when `type` changes. See `brokerEnableBackgroundDelivery(for:frequency:)`.
    open func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency) async throws {
        try await brokerEnableBackgroundDelivery(for: type, frequency: frequency)
    }

    @preconcurrency
    open func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency,
                                       withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        brokerEnableBackgroundDelivery(for: type, frequency: frequency, withCompletion: completion)
    }

    open func disableBackgroundDelivery(for type: HKObjectType) async throws { try await brokerDisableBackgroundDelivery(for: type) }

    @preconcurrency
    open func disableBackgroundDelivery(for type: HKObjectType,
                                        withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        brokerDisableBackgroundDelivery(for: type, withCompletion: completion)
    }

    open func disableAllBackgroundDelivery() async throws { try await brokerDisableAllBackgroundDelivery() }

    @preconcurrency
    open func disableAllBackgroundDelivery(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        brokerDisableAllBackgroundDelivery(completion: completion)
    }

    // MARK: Preferred units (HKHealthStore+PreferredUnits)

    /// The unit the user reads each type in. See `brokerPreferredUnits(for:)`.
    open func preferredUnits(for quantityTypes: Set<HKQuantityType>) async throws -> [HKQuantityType: HKUnit] {
        try await brokerPreferredUnits(for: quantityTypes)
    }

    @preconcurrency
    open func preferredUnits(for quantityTypes: Set<HKQuantityType>,
                             completion: @escaping @Sendable ([HKQuantityType: HKUnit], (any Error)?) -> Void) {
        brokerPreferredUnits(for: quantityTypes, completion: completion)
    }

    // MARK: Characteristics (HKHealthStore+Characteristics)

    open func dateOfBirthComponents() throws -> DateComponents { try brokerDateOfBirthComponents() }
    open func biologicalSex() throws -> HKBiologicalSexObject { try brokerBiologicalSex() }
    open func bloodType() throws -> HKBloodTypeObject { try brokerBloodType() }
    open func fitzpatrickSkinType() throws -> HKFitzpatrickSkinTypeObject { try brokerFitzpatrickSkinType() }
    open func wheelchairUse() throws -> HKWheelchairUseObject { try brokerWheelchairUse() }
    open func activityMoveMode() throws -> HKActivityMoveModeObject { try brokerActivityMoveMode() }

    /// Apple's pre-iOS 10 form of the date of birth, deprecated there for `dateOfBirthComponents()`.
    /// See `brokerDateOfBirth()`: built from this store's `dateOfBirthComponents()`.
    @available(*, deprecated, renamed: "dateOfBirthComponents()")
    open func dateOfBirth() throws -> Date { try brokerDateOfBirth() }

    // MARK: Workouts (HKHealthStore+Workouts)

    /// Associates `samples` with `workout`. See `brokerAdd(_:to:)`.
    open func add(_ samples: [HKSample], to workout: HKWorkout) async throws { try await brokerAdd(samples, to: workout) }

    open func addSamples(_ samples: [HKSample], to workout: HKWorkout) async throws { try await brokerAddSamples(samples, to: workout) }

    @preconcurrency
    open func add(_ samples: [HKSample], to workout: HKWorkout, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        brokerAdd(samples, to: workout, completion: completion)
    }

    // MARK: Workout effort (HKHealthStore+WorkoutEffort)

    /// Relates an effort sample with a workout (iOS 18). See `brokerRelateWorkoutEffortSample`.
    open func relateWorkoutEffortSample(_ sample: HKSample, with workout: HKWorkout, activity: HKWorkoutActivity?) async throws -> Bool {
        try await brokerRelateWorkoutEffortSample(sample, with: workout, activity: activity)
    }

    @preconcurrency
    open func relateWorkoutEffortSample(_ sample: HKSample, with workout: HKWorkout, activity: HKWorkoutActivity?,
                                        completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { _ = try await self.brokerRelateWorkoutEffortSample(sample, with: workout, activity: activity) }
    }

    open func unrelateWorkoutEffortSample(_ sample: HKSample, from workout: HKWorkout, activity: HKWorkoutActivity?) async throws -> Bool {
        try await brokerUnrelateWorkoutEffortSample(sample, from: workout, activity: activity)
    }

    @preconcurrency
    open func unrelateWorkoutEffortSample(_ sample: HKSample, from workout: HKWorkout, activity: HKWorkoutActivity?,
                                          completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { _ = try await self.brokerUnrelateWorkoutEffortSample(sample, from: workout, activity: activity) }
    }

    // MARK: Watch app (HKHealthStore+WatchApp)

    /// Apple's iPhone call that launches the paired watch's app for a workout. See
    /// `brokerStartWatchApp(with:)`: there is no paired watch on Linux, so it always fails.
    open func startWatchApp(toHandle workoutConfiguration: HKWorkoutConfiguration) async throws {
        try brokerStartWatchApp(with: workoutConfiguration)
    }

    @preconcurrency
    open func startWatchApp(with workoutConfiguration: HKWorkoutConfiguration,
                            completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let result = Result { try brokerStartWatchApp(with: workoutConfiguration) }
        Task { if case let .failure(error) = result { completion(false, error) } else { completion(true, nil) } }
    }

    /// Always nil: sessions do not outlive their process. See `brokerRecoverActiveWorkoutSession()`.
    open func recoverActiveWorkoutSession() async throws -> HKWorkoutSession? { try await brokerRecoverActiveWorkoutSession() }

    @preconcurrency
    open func recoverActiveWorkoutSession(completion: @escaping @Sendable (HKWorkoutSession?, (any Error)?) -> Void) {
        brokerRecoverActiveWorkoutSession(completion: completion)
    }

    /// Resting energy from the stored basal samples, active the rest. See `brokerSplitTotalEnergy(_:start:end:)`.
    @preconcurrency
    open func splitTotalEnergy(_ totalEnergy: HKQuantity, start startDate: Date, end endDate: Date,
                               resultsHandler: @escaping @Sendable (HKQuantity?, HKQuantity?, (any Error)?) -> Void) {
        brokerSplitTotalEnergy(totalEnergy, start: startDate, end: endDate, resultsHandler: resultsHandler)
    }

    // MARK: Estimates and extensions (HKHealthStore+Estimates, +ExtensionAuthorization)

    /// Checks Apple's preconditions; nothing is estimated here. See `brokerRecalibrateEstimates(sampleType:date:)`.
    open func recalibrateEstimates(sampleType: HKSampleType, date: Date) async throws {
        try await brokerRecalibrateEstimates(sampleType: sampleType, date: date)
    }

    @preconcurrency
    open func recalibrateEstimates(sampleType: HKSampleType, date: Date,
                                   completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        brokerRecalibrateEstimates(sampleType: sampleType, date: date, completion: completion)
    }

    /// Succeeds at once: the manager shows every prompt. See `brokerHandleAuthorizationForExtension()`.
    open func handleAuthorizationForExtension() async throws { try await brokerHandleAuthorizationForExtension() }

    @preconcurrency
    open func handleAuthorizationForExtension(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        brokerHandleAuthorizationForExtension(completion: completion)
    }
}
