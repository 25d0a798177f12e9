import HealthWire

/// Where each app method's work that grows with the data runs: in the query slots
/// (`QueryScheduler`, round-robin across apps, one per app), or nowhere near them because the
/// request itself bounds it. The one choke point of scheduling (ARCHITECTURE.md "Scheduling"):
/// a computation that reads many rows for one app outside the slots lets that app take every
/// thread of the shared pool while other apps' calls wait (before session 18 the watches did).
///
/// Decided per method with no default, like `MethodTable.cost` and `RereadRule`: a method added
/// to `HealthStoreMethod` does not build until someone says where its work runs, and
/// `ComputationScheduleTests` checks each answer against how `CallDispatcher` runs the call
/// (`MethodTable.cost` for the method's requests).
enum ComputationSchedule: Equatable, Sendable {
    /// A finite answer: the whole call runs in a slot (`MethodTable.Cost.largeQuery`), parked
    /// while its client reads.
    case wholeCallInASlot
    /// A long-running query: each store visit — the first answer, every recomputation and
    /// re-check after a wake-up — runs in a slot (`ScheduledStoreVisits`); the waits between
    /// visits hold none.
    case eachStoreVisitInASlot
    /// The anchored and effort-relationship queries: a finite answer or a long-running one, as
    /// the request says (`longRunning`).
    case asItsRequestSays
    /// Work bounded by the request, whatever the store holds: the reason. Such a method runs no
    /// app predicate over stored rows and holds a store reader or the writer only for what its
    /// request names; a method that does either for longer belongs in the slots, which are what
    /// accounts for readers held long (`BrokerLimits.storeReaders`).
    case bounded(Bound)

    enum Bound: Equatable, Sendable {
        /// Answered from the app's grants (memory, `GrantCache`, or one read of its grants).
        case grantLookup
        /// Reads or writes what one request names, within the frame limits (a save, a deletion
        /// by UUIDs, one characteristic, an attachment chunk).
        case oneRequestsObjects
        /// A per-object read request or document offer: at most 1,000 candidates, one request
        /// at a time per app (`PerObjectPromptCenter`).
        case promptCandidates
    }

    static func of(_ method: HealthStoreMethod) -> ComputationSchedule {
        switch method {
        case .querySamples, .queryCorrelations, .queryRouteData, .querySeriesData, .queryStatistics,
             .queryStatisticsCollection, .queryActivitySummaries, .querySources, .readAttachmentData:
            return .wholeCallInASlot
        case .deleteMatching:
            // Not bounded by its request: each chunk's selection evaluates the app's predicate on
            // a store reader, for up to the statement budget (a chunk's commit is short, and the
            // slot is held through it). Until session 20 this was `.bounded(.writerChunks)`,
            // reasoned from the writer alone; the readers it held were no one's to count.
            return .wholeCallInASlot
        case .observeChanges, .watchStatisticsCollection, .watchActivitySummaries, .watchUserPreferences:
            return .eachStoreVisitInASlot
        case .queryAnchored, .queryWorkoutEffortRelationships:
            return .asItsRequestSays
        case .getRequestStatus, .authorizationStatus, .currentSource, .requestAuthorization, .preferredUnits,
             .enableBackgroundDelivery, .disableBackgroundDelivery, .disableAllBackgroundDeliveries:
            return .bounded(.grantLookup)
        case .save, .acknowledgeObserverUpdate, .addSamplesToWorkout, .insertRouteData, .finishRoute, .deleteObjects,
             .getCharacteristic, .relateWorkoutEffort, .unrelateWorkoutEffort, .beginAttachment, .appendAttachmentData,
             .finishAttachment, .listAttachments, .removeAttachment:
            return .bounded(.oneRequestsObjects)
        case .requestPerObjectReadAuthorization, .offerDocuments:
            return .bounded(.promptCandidates)
        }
    }

    /// How `CallDispatcher` runs an app's call of `cost`: the schedule it gets.
    static func applied(for cost: MethodTable.Cost) -> ComputationSchedule? {
        switch cost {
        case .largeQuery: .wholeCallInASlot
        case .longRunningQuery: .eachStoreVisitInASlot
        case .cheap, .permissionPrompt: nil
        }
    }
}
