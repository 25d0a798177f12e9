import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// Every method the broker serves, with who may call it — the whole privileged API in one place
/// (the OpenSSH monitor's dispatch table). A method not in the caller's socket's table does not
/// exist for that caller: an admin method sent on the app socket is UNIMPLEMENTED, whatever bytes
/// accompany it.
enum MethodTable {
    enum Handler: Sendable {
        case unary(@Sendable (BrokerContext, Caller, [UInt8]) async throws -> Reply)
        case stream(@Sendable (BrokerContext, Caller, [UInt8], CallResponder) async throws -> Void)
        /// A unary call answered from the apps and grants alone (`StoreHandle.withGrants`: memory,
        /// `GrantCache`, or on a cache miss one read of the app's grants), synchronously. The dispatcher answers it on the connection's reader
        /// thread when it can (`CallDispatcher.answerNow`) and otherwise as a `.unary` call.
        /// Such a handler must have no side effects: a call it throws on runs again on the
        /// ordinary path, which reports the failure (and logs a refusal).
        case immediate(@Sendable (BrokerContext, Caller, [UInt8], HealthDatabase) throws -> Reply)
        /// A unary write with a second, synchronous form that commits into the open store on the
        /// connection's reader thread, waiting there for its commit (`CallDispatcher.commitNow`):
        /// a lone durable save then costs no thread hand-off (issue 17). The synchronous form
        /// gets the call's access report and must commit the call's entry in the write's own
        /// transaction; it throws only when it wrote nothing, and the call then runs as
        /// `.unary` with `ordinary`, which reports the failure (and logs a refusal).
        case write(ordinary: @Sendable (BrokerContext, Caller, [UInt8]) async throws -> Reply,
                   onReader: @Sendable (BrokerContext, Caller, [UInt8], HealthDatabase, CallAccessReport) throws -> Reply)
    }

    struct Reply: Sendable {
        var payload: [UInt8]
        /// A descriptor passed with the reply (LaunchBind only); the broker closes its copy after sending.
        var descriptor: Int32?

        init(_ message: some WireMessage, passing descriptor: Int32? = nil) {
            payload = message.wireBytes()
            self.descriptor = descriptor
        }
    }

    /// Served on the app socket, to installed apps only.
    static let app: [String: Handler] = [
        HealthStoreMethod.getRequestStatus.rawValue: .immediate(AppService.getRequestStatus),
        HealthStoreMethod.requestAuthorization.rawValue: .unary(AppService.requestAuthorization),
        HealthStoreMethod.authorizationStatus.rawValue: .immediate(AppService.authorizationStatus),
        HealthStoreMethod.save.rawValue: .write(ordinary: AppService.save, onReader: AppService.saveOnReader),
        HealthStoreMethod.querySamples.rawValue: .stream(AppService.querySamples),
        HealthStoreMethod.queryAnchored.rawValue: .stream(AnchoredQueryService.query),
        HealthStoreMethod.observeChanges.rawValue: .stream(ObserverQueryService.observe),
        HealthStoreMethod.acknowledgeObserverUpdate.rawValue: .unary(ObserverQueryService.acknowledge),
        HealthStoreMethod.querySources.rawValue: .unary(SourceQueryService.query),
        HealthStoreMethod.addSamplesToWorkout.rawValue: .unary(WorkoutService.addSamplesToWorkout),
        HealthStoreMethod.insertRouteData.rawValue: .unary(RouteService.insertRouteData),
        HealthStoreMethod.finishRoute.rawValue: .unary(RouteService.finishRoute),
        HealthStoreMethod.queryRouteData.rawValue: .stream(RouteService.queryRouteData),
        HealthStoreMethod.querySeriesData.rawValue: .stream(SeriesService.querySeriesData),
        HealthStoreMethod.deleteObjects.rawValue: .unary(DeletionService.deleteObjects),
        HealthStoreMethod.deleteMatching.rawValue: .unary(DeletionService.deleteMatching),
        HealthStoreMethod.queryStatistics.rawValue: .unary(StatisticsService.queryStatistics),
        HealthStoreMethod.queryStatisticsCollection.rawValue: .stream(StatisticsService.queryStatisticsCollection),
        HealthStoreMethod.getCharacteristic.rawValue: .unary(CharacteristicService.get),
        HealthStoreMethod.queryCorrelations.rawValue: .stream(CorrelationService.query),
        HealthStoreMethod.preferredUnits.rawValue: .unary(PreferredUnitService.preferredUnits),
        HealthStoreMethod.enableBackgroundDelivery.rawValue: .unary(BackgroundDeliveryService.enable),
        HealthStoreMethod.disableBackgroundDelivery.rawValue: .unary(BackgroundDeliveryService.disable),
        HealthStoreMethod.disableAllBackgroundDeliveries.rawValue: .unary(BackgroundDeliveryService.disableAll),
        HealthStoreMethod.queryActivitySummaries.rawValue: .stream(ActivitySummaryService.query),
        HealthStoreMethod.watchStatisticsCollection.rawValue: .stream(StatisticsCollectionWatchService.watch),
        HealthStoreMethod.watchActivitySummaries.rawValue: .stream(ActivitySummaryWatchService.watch),
        HealthStoreMethod.currentSource.rawValue: .immediate(AppService.currentSource),
        HealthStoreMethod.requestPerObjectReadAuthorization.rawValue: .unary(PerObjectReadService.request),
        HealthStoreMethod.offerDocuments.rawValue: .unary(PerObjectReadService.offerDocuments),
        HealthStoreMethod.queryVerifiableRecords.rawValue: .unary(VerifiableRecordService.query),
        HealthStoreMethod.watchUserPreferences.rawValue: .stream(UserPreferencesFeedService.watch),
        HealthStoreMethod.relateWorkoutEffort.rawValue: .unary(WorkoutEffortService.relate),
        HealthStoreMethod.unrelateWorkoutEffort.rawValue: .unary(WorkoutEffortService.unrelate),
        HealthStoreMethod.queryWorkoutEffortRelationships.rawValue: .stream(WorkoutEffortService.query),
        HealthStoreMethod.beginAttachment.rawValue: .unary(AttachmentService.begin),
        HealthStoreMethod.appendAttachmentData.rawValue: .unary(AttachmentService.append),
        HealthStoreMethod.finishAttachment.rawValue: .unary(AttachmentService.finish),
        HealthStoreMethod.listAttachments.rawValue: .unary(AttachmentService.list),
        HealthStoreMethod.readAttachmentData.rawValue: .stream(AttachmentService.readData),
        HealthStoreMethod.removeAttachment.rawValue: .unary(AttachmentService.remove),
    ]

    /// Served on the admin socket, to the manager tools only.
    static let manager: [String: Handler] = [
        HealthManagerMethod.status.rawValue: .unary(ManagerService.status),
        HealthManagerMethod.installApp.rawValue: .unary(ManagerService.installApp),
        HealthManagerMethod.listApps.rawValue: .unary(ManagerService.listApps),
        HealthManagerMethod.setDirectConnection.rawValue: .unary(ManagerService.setDirectConnection),
        HealthManagerMethod.setNetworkAccess.rawValue: .unary(ManagerService.setNetworkAccess),
        HealthManagerMethod.listRequests.rawValue: .unary(ManagerService.listRequests),
        HealthManagerMethod.watchRequests.rawValue: .stream(ManagerService.watchRequests),
        HealthManagerMethod.answerRequest.rawValue: .unary(ManagerService.answerRequest),
        HealthManagerMethod.setGrants.rawValue: .unary(ManagerService.setGrants),
        HealthManagerMethod.listGrants.rawValue: .unary(ManagerService.listGrants),
        HealthManagerMethod.querySamples.rawValue: .stream(ManagerService.querySamples),
        HealthManagerMethod.launchBind.rawValue: .unary(ManagerService.launchBind),
        HealthManagerMethod.getKeyStatus.rawValue: .unary(KeyManagementService.keyStatus),
        HealthManagerMethod.rotateKey.rawValue: .unary(KeyManagementService.rotateKey),
        HealthManagerMethod.setPasscode.rawValue: .unary(KeyManagementService.setPasscode),
        HealthManagerMethod.changePasscode.rawValue: .unary(KeyManagementService.changePasscode),
        HealthManagerMethod.removePasscode.rawValue: .unary(KeyManagementService.removePasscode),
        HealthManagerMethod.lock.rawValue: .unary(LockService.lock),
        HealthManagerMethod.unlock.rawValue: .unary(LockService.unlock),
        HealthManagerMethod.listAccessLog.rawValue: .stream(AccessLogService.list),
        HealthManagerMethod.verifyAccessLog.rawValue: .unary(AccessLogService.verify),
        HealthManagerMethod.listSources.rawValue: .unary(SourcePriorityService.listSources),
        HealthManagerMethod.setSourcePriority.rawValue: .unary(SourcePriorityService.setSourcePriority),
        HealthManagerMethod.listCharacteristics.rawValue: .unary(CharacteristicService.list),
        HealthManagerMethod.setCharacteristic.rawValue: .unary(CharacteristicService.set),
        HealthManagerMethod.listUnitPreferences.rawValue: .unary(PreferredUnitService.list),
        HealthManagerMethod.setUnitPreference.rawValue: .unary(PreferredUnitService.set),
        HealthManagerMethod.listBackgroundDeliveries.rawValue: .unary(BackgroundDeliveryService.list),
        HealthManagerMethod.watchLaunches.rawValue: .stream(BackgroundDeliveryService.watchLaunches),
        HealthManagerMethod.reportLaunchOutcome.rawValue: .unary(BackgroundDeliveryService.reportLaunchOutcome),
        HealthManagerMethod.listActivityGoals.rawValue: .unary(ActivitySummaryService.listGoals),
        HealthManagerMethod.setActivityGoals.rawValue: .unary(ActivitySummaryService.setGoals),
        HealthManagerMethod.queryActivitySummaries.rawValue: .stream(ActivitySummaryService.queryForManager),
        HealthManagerMethod.importSamples.rawValue: .unary(ImportService.importSamples),
        HealthManagerMethod.queryRouteData.rawValue: .stream(RouteService.queryForManager),
        HealthManagerMethod.querySeriesData.rawValue: .stream(SeriesService.queryForManager),
        HealthManagerMethod.addSamples.rawValue: .unary(UserDataService.addSamples),
        HealthManagerMethod.archiveMedication.rawValue: .unary(MedicationService.archive),
        HealthManagerMethod.deleteSamples.rawValue: .unary(UserDataService.deleteSamples),
        HealthManagerMethod.removeApp.rawValue: .unary(UserDataService.removeApp),
        HealthManagerMethod.listPerObjectRequests.rawValue: .stream(PerObjectReadService.list),
        HealthManagerMethod.answerPerObjectRequest.rawValue: .unary(PerObjectReadService.answer),
        HealthManagerMethod.listObjectReadGrants.rawValue: .unary(PerObjectReadService.listGrants),
        HealthManagerMethod.revokeObjectReadGrants.rawValue: .unary(PerObjectReadService.revoke),
        HealthManagerMethod.importVerifiableRecords.rawValue: .unary(VerifiableRecordService.importRecords),
        HealthManagerMethod.listVerifiableRecords.rawValue: .stream(VerifiableRecordService.list),
        HealthManagerMethod.deleteVerifiableRecords.rawValue: .unary(VerifiableRecordService.delete),
        HealthManagerMethod.listAttachments.rawValue: .unary(AttachmentService.listForManager),
        HealthManagerMethod.readAttachmentData.rawValue: .stream(AttachmentService.readForManager),
        HealthManagerMethod.removeAttachment.rawValue: .unary(AttachmentService.removeForManager),
        HealthManagerMethod.listAppStorage.rawValue: .unary(AppStorageService.list),
        HealthManagerMethod.setAppStorageBound.rawValue: .unary(AppStorageService.setBound),
    ]

    /// How much of the broker an app's call may hold (BrokerLimits): a long-running query counts
    /// against the app's long-running budget for as long as it stays open; a large query (a
    /// finite call whose work grows with the store: a stream that reads and sends many rows, a
    /// statistic, a deletion by predicate) runs only in a `QueryScheduler` slot. A cheap call
    /// evaluates no app predicate over stored rows and holds a reader or the writer for what its
    /// request names only (`ComputationSchedule.Bound`).
    enum Cost: Sendable, Equatable {
        case cheap
        /// May ask the user (a pending prompt of `PromptKind`): refused up front, before any
        /// store work, while the app has that kind's limit of prompts waiting.
        case permissionPrompt(PromptKind)
        case largeQuery
        case longRunningQuery
    }

    /// The two queues of questions to the user, each with its own per-app limit: type-wide
    /// prompts (`PromptCenter`) and per-object read requests (`PerObjectPromptCenter`).
    enum PromptKind: Sendable, Equatable {
        case typeWide
        case perObject
    }

    /// The cost of an app's call. Only the anchored and workout effort relationship queries need
    /// their request to tell (each is long-running when it asks for updates); a request that does
    /// not decode counts as a large query, and its handler then refuses it as invalid.
    ///
    /// The switch names every app method and has no default, so a method added to
    /// `HealthStoreMethod` does not build until someone decides what it may hold (session 12 red
    /// team: a default of `.cheap` would have let a new streaming method skip both budgets).
    /// Names that are no app method (the manager's, or unknown ones, which the dispatcher refuses)
    /// are cheap: the budgets are the apps'.
    static func cost(of method: String, payload: [UInt8]) -> Cost {
        guard let appMethod = HealthStoreMethod(rawValue: method) else { return .cheap }
        switch appMethod {
        case .requestAuthorization:
            return .permissionPrompt(.typeWide)
        case .requestPerObjectReadAuthorization,
             .queryVerifiableRecords:  // waits in the per-object queue; its candidates are read by the user's listing
            return .permissionPrompt(.perObject)
        case .observeChanges, .watchStatisticsCollection, .watchActivitySummaries, .watchUserPreferences:
            return .longRunningQuery
        case .queryAnchored:
            return (try? AnchoredQuerySpec(wire: payload))?.longRunning == true ? .longRunningQuery : .largeQuery
        case .queryWorkoutEffortRelationships:
            return (try? WorkoutEffortQuery(wire: payload))?.longRunning == true ? .longRunningQuery : .largeQuery
        case .querySamples, .queryCorrelations, .queryRouteData, .querySeriesData, .queryStatistics,
             .queryStatisticsCollection, .queryActivitySummaries, .querySources, .readAttachmentData:
            return .largeQuery
        case .deleteMatching:
            // Each chunk's selection runs the app's predicate on a store reader, for up to the
            // statement budget: in a slot, that reader is one the slots account for. As a cheap
            // call, 64 at once took every reader and then every pool thread (session 20
            // availability review, finding 2; `MatchingDeletionSchedulingEndToEndTests`).
            return .largeQuery
        case .getRequestStatus, .authorizationStatus, .save, .acknowledgeObserverUpdate,
             .addSamplesToWorkout, .insertRouteData, .finishRoute, .deleteObjects,
             .getCharacteristic, .preferredUnits, .enableBackgroundDelivery, .disableBackgroundDelivery,
             .disableAllBackgroundDeliveries, .currentSource, .relateWorkoutEffort, .unrelateWorkoutEffort,
             .beginAttachment, .appendAttachmentData, .finishAttachment, .listAttachments, .removeAttachment,
             .offerDocuments:  // files the offer and reads no candidate: the user's listing does (PerObjectCandidates)
            // One bounded request, one bounded answer: the call's own frame limits hold it.
            return .cheap
        }
    }

    /// Whether an app's call may add to what the app stores, and so is refused once the app is at
    /// its storage bound (`CallDispatcher`, `StorageUse`). Deletions never are: they give room back.
    /// Like `cost`, the switch names every app method and has no default: a new write does not
    /// build until someone decides. Names that are no app method are not app writes.
    static func storesData(_ method: String) -> Bool {
        storingMethods.contains(method)
    }

    /// `stores(_:)`'s methods by name: one hash lookup per call, where decoding the name into a
    /// `HealthStoreMethod` compares it with every method's (a lone save's path counts them).
    private static let storingMethods = Set(HealthStoreMethod.allCases.filter(stores).map(\.rawValue))

    private static func stores(_ appMethod: HealthStoreMethod) -> Bool {
        switch appMethod {
        case .save, .addSamplesToWorkout, .insertRouteData, .finishRoute, .relateWorkoutEffort,
             .beginAttachment, .appendAttachmentData, .finishAttachment:
            return true
        case .deleteObjects, .deleteMatching, .unrelateWorkoutEffort, .removeAttachment,
             // One row per type at most, which the app's deletion of it removes.
             .enableBackgroundDelivery, .disableBackgroundDelivery, .disableAllBackgroundDeliveries,
             .getRequestStatus, .requestAuthorization, .authorizationStatus, .querySamples, .queryAnchored,
             .observeChanges, .acknowledgeObserverUpdate, .querySources, .queryRouteData, .querySeriesData,
             .queryStatistics, .queryStatisticsCollection, .getCharacteristic, .queryCorrelations, .preferredUnits,
             .queryActivitySummaries, .watchStatisticsCollection, .watchActivitySummaries, .currentSource,
             .requestPerObjectReadAuthorization, .offerDocuments, .watchUserPreferences, .queryWorkoutEffortRelationships,
             .listAttachments, .readAttachmentData, .queryVerifiableRecords:
            return false
        }
    }

    /// Whether an app's call may append to the pending journal while the store is locked — a
    /// write of its own, or its access-log entry — and so is refused, while locked, once the app
    /// has journaled its bound (`CallDispatcher`, `JournalAppends`). Every method that is
    /// access-logged or journals a write is; the rest answer from memory or fail while locked
    /// without a record. Like `stores`, the switch names every app method and has no default: a
    /// new method does not build until someone decides (session 21 availability review,
    /// finding 2: calls that journal only their log entry — `RequestAuthorization` for decided
    /// types, `OfferDocuments` — were never refused, and one app journaled 17 MB at an 8 MiB bound).
    static func journalsWhileLocked(_ method: String) -> Bool {
        journalingMethods.contains(method)
    }

    private static let journalingMethods = Set(HealthStoreMethod.allCases.filter(journals).map(\.rawValue))

    private static func journals(_ appMethod: HealthStoreMethod) -> Bool {
        switch appMethod {
        // Writes, journaled while locked (StoreHandle+PendingWrites), and logged.
        case .save, .addSamplesToWorkout, .insertRouteData, .finishRoute, .relateWorkoutEffort, .unrelateWorkoutEffort,
             .deleteObjects, .deleteMatching, .enableBackgroundDelivery, .disableBackgroundDelivery,
             .disableAllBackgroundDeliveries,
             // Attachments need the open store; decided here all the same, as writes.
             .beginAttachment, .appendAttachmentData, .finishAttachment, .removeAttachment,
             // Requests: answered while locked, each with its access-log entry.
             .requestAuthorization, .requestPerObjectReadAuthorization, .offerDocuments,
             // Reads: fail while locked, but are access-logged whenever they report what they read.
             .querySamples, .queryAnchored, .observeChanges, .querySources, .queryRouteData, .querySeriesData,
             .queryStatistics, .queryStatisticsCollection, .getCharacteristic, .queryCorrelations,
             .queryActivitySummaries, .watchStatisticsCollection, .watchActivitySummaries,
             .queryWorkoutEffortRelationships, .listAttachments, .readAttachmentData, .queryVerifiableRecords:
            return true
        // Answered from memory or the grants, or failing while locked, with no record.
        case .getRequestStatus, .authorizationStatus, .currentSource, .acknowledgeObserverUpdate, .preferredUnits,
             .watchUserPreferences:
            return false
        }
    }

    /// The methods recorded in the access log (DESIGN.md §7.9), as which action. The handler
    /// reports the app, types and count (`CallAccessReport`); `CallDispatcher` appends the entry.
    /// Status, listing and key methods touch no health data and are not logged; reading the log
    /// itself is not logged either (it would grow with every look at it).
    static let accessLogged: [String: AccessAction] = [
        HealthStoreMethod.requestAuthorization.rawValue: .request,
        HealthStoreMethod.save.rawValue: .write,
        HealthStoreMethod.querySamples.rawValue: .read,
        HealthManagerMethod.answerRequest.rawValue: .grantChange,
        HealthManagerMethod.setGrants.rawValue: .grantChange,
        HealthManagerMethod.querySamples.rawValue: .read,
        HealthStoreMethod.queryAnchored.rawValue: .read,
        HealthStoreMethod.observeChanges.rawValue: .read,
        HealthStoreMethod.querySources.rawValue: .read,
        HealthStoreMethod.addSamplesToWorkout.rawValue: .write,
        HealthStoreMethod.insertRouteData.rawValue: .write,
        HealthStoreMethod.finishRoute.rawValue: .write,
        HealthStoreMethod.queryRouteData.rawValue: .read,
        HealthStoreMethod.querySeriesData.rawValue: .read,
        HealthStoreMethod.deleteObjects.rawValue: .delete,
        HealthStoreMethod.deleteMatching.rawValue: .delete,
        HealthStoreMethod.queryStatistics.rawValue: .read,
        HealthStoreMethod.queryStatisticsCollection.rawValue: .read,
        HealthStoreMethod.getCharacteristic.rawValue: .read,
        HealthManagerMethod.listCharacteristics.rawValue: .read,
        HealthManagerMethod.setCharacteristic.rawValue: .write,
        HealthStoreMethod.queryCorrelations.rawValue: .read,
        HealthStoreMethod.queryActivitySummaries.rawValue: .read,
        HealthManagerMethod.listActivityGoals.rawValue: .read,
        HealthManagerMethod.setActivityGoals.rawValue: .write,
        HealthManagerMethod.queryActivitySummaries.rawValue: .read,
        HealthStoreMethod.watchStatisticsCollection.rawValue: .read,
        HealthStoreMethod.watchActivitySummaries.rawValue: .read,
        HealthManagerMethod.importSamples.rawValue: .write,
        HealthManagerMethod.queryRouteData.rawValue: .read,
        HealthManagerMethod.querySeriesData.rawValue: .read,
        HealthManagerMethod.addSamples.rawValue: .write,
        HealthManagerMethod.archiveMedication.rawValue: .write,
        HealthManagerMethod.deleteSamples.rawValue: .delete,
        HealthManagerMethod.removeApp.rawValue: .grantChange,
        HealthStoreMethod.requestPerObjectReadAuthorization.rawValue: .request,
        HealthStoreMethod.offerDocuments.rawValue: .request,
        HealthManagerMethod.answerPerObjectRequest.rawValue: .grantChange,
        HealthManagerMethod.revokeObjectReadGrants.rawValue: .grantChange,
        HealthStoreMethod.queryVerifiableRecords.rawValue: .read,
        HealthManagerMethod.importVerifiableRecords.rawValue: .write,
        HealthManagerMethod.deleteVerifiableRecords.rawValue: .delete,
        HealthStoreMethod.relateWorkoutEffort.rawValue: .write,
        HealthStoreMethod.unrelateWorkoutEffort.rawValue: .write,
        HealthStoreMethod.queryWorkoutEffortRelationships.rawValue: .read,
        HealthStoreMethod.beginAttachment.rawValue: .write,
        HealthStoreMethod.finishAttachment.rawValue: .write,
        HealthStoreMethod.listAttachments.rawValue: .read,
        HealthStoreMethod.readAttachmentData.rawValue: .read,
        HealthStoreMethod.removeAttachment.rawValue: .delete,
        HealthManagerMethod.listAttachments.rawValue: .read,
        HealthManagerMethod.readAttachmentData.rawValue: .read,
        HealthManagerMethod.removeAttachment.rawValue: .delete,
    ]
}
