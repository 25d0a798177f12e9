public import Foundation
import Synchronization

/// A workout builder fed while the workout happens, as HealthKit's `HKLiveWorkoutBuilder`:
/// from its `dataSource` (one long-running anchored query per type to collect, from the
/// collection's start, each filtered by healthd's read rules) and from its session (pause and
/// resume events when `shouldCollectWorkoutEvents`). Its delegate hears of each new batch of
/// samples and each event; `statistics(for:)` and `elapsedTime` are live.
public final class HKLiveWorkoutBuilder: HKWorkoutBuilder, @unchecked Sendable {
    // @unchecked: mutable state is in Mutexes (here and in HKWorkoutBuilder).
    private let delivery = DelegateDelivery<any HKLiveWorkoutBuilderDelegate>(label: "HKLiveWorkoutBuilder.delegate")
    private let source = Mutex<HKLiveWorkoutDataSource?>(nil)
    private let sessionLink = Mutex<WeakSession>(WeakSession())
    private let collectEvents = Atomic<Bool>(true)
    /// The running query per collected type.
    private let queries = Mutex<[HKQuantityType: HKAnchoredObjectQuery]>([:])

    private struct WeakSession: @unchecked Sendable {
        weak var session: HKWorkoutSession?
    }

    public weak var delegate: (any HKLiveWorkoutBuilderDelegate)? {
        get { delivery.delegate }
        set { delivery.delegate = newValue }
    }

    /// Set it before `beginCollection`; types enabled later while collecting start at once.
    public var dataSource: HKLiveWorkoutDataSource? {
        get { source.withLock { $0 } }
        set {
            let old = source.withLock { source in
                let old = source
                source = newValue
                return old
            }
            old?.attach(nil)
            newValue?.attach(self)
            restartCollection()
        }
    }

    public var workoutSession: HKWorkoutSession? { sessionLink.withLock { $0.session } }

    /// Whether the session's pause and resume events are added to the workout (HealthKit's
    /// default: true).
    public var shouldCollectWorkoutEvents: Bool {
        get { collectEvents.load(ordering: .relaxed) }
        set { collectEvents.store(newValue, ordering: .relaxed) }
    }

    /// The workout's elapsed time now, without paused time.
    public var elapsedTime: TimeInterval { elapsedTime(at: Date()) }

    /// The activity in progress, if one was begun and not ended.
    public var currentWorkoutActivity: HKWorkoutActivity? { activityInProgress }

    func attach(to session: HKWorkoutSession) {
        sessionLink.withLock { $0.session = session }
    }

    // MARK: Collection

    override func didBeginCollection(at startDate: Date) async throws {
        restartCollection()
    }

    override func didEndCollection() {
        let running = queries.withLock { queries in
            let running = Array(queries.values)
            queries = [:]
            return running
        }
        for query in running { healthStore.stop(query) }
    }

    /// Called by the data source when a type is enabled or disabled.
    func collectionChanged(for type: HKQuantityType) {
        stopQuery(for: type)
        startQuery(for: type)
    }

    private func restartCollection() {
        didEndCollection()
        for type in dataSource?.typesToCollect ?? [] { startQuery(for: type) }
    }

    private func stopQuery(for type: HKQuantityType) {
        if let query = queries.withLock({ $0.removeValue(forKey: type) }) { healthStore.stop(query) }
    }

    /// One long-running anchored query for `type`: samples that end at or after the start and
    /// match the data source's predicate, as healthd lets this app read them.
    private func startQuery(for type: HKQuantityType) {
        guard let collection = dataSource?.collection(for: type), let start = startDate,
              contents.withLock({ $0.phase }) == .collecting else { return }
        var predicate = HKQuery.predicateForSamples(withStart: start, end: nil, options: [])
        if let extra = collection.value {
            predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [predicate, extra])
        }
        let handler: @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?) -> Void = {
            [weak self] _, samples, _, _, _ in
            guard let self, let samples, !samples.isEmpty else { return }
            self.received(samples)
        }
        let query = HKAnchoredObjectQuery(type: type, predicate: predicate, anchor: nil, limit: HKObjectQueryNoLimit,
                                          resultsHandler: handler)
        query.updateHandler = handler
        queries.withLock { $0[type] = query }
        healthStore.execute(query)
    }

    private func received(_ samples: [HKSample]) {
        let types = collect(samples)
        guard !types.isEmpty else { return }
        delivery.deliver { $0.workoutBuilder(self, didCollectDataOf: types) }
    }

    // MARK: From the session

    func sessionGenerated(_ event: HKWorkoutEvent) {
        guard shouldCollectWorkoutEvents, appendEvent(event) else { return }
        delivery.deliver { $0.workoutBuilderDidCollectEvent(self) }
    }

    override func beginActivity(_ activity: HKWorkoutActivity) throws(HKError) {
        try super.beginActivity(activity)
        delivery.deliver { $0.workoutBuilder(self, didBegin: activity) }
    }

    override func endActivity(uuid: UUID, at endDate: Date) throws(HKError) {
        try super.endActivity(uuid: uuid, at: endDate)
        if let ended = workoutActivities.first(where: { $0.uuid == uuid }) {
            delivery.deliver { $0.workoutBuilder(self, didEnd: ended) }
        }
    }

    override public func addWorkoutEvents(_ workoutEvents: [HKWorkoutEvent]) async throws {
        try await super.addWorkoutEvents(workoutEvents)
        delivery.deliver { $0.workoutBuilderDidCollectEvent(self) }
    }

    /// Waits until the delegate has received every call made so far.
    func delegateCallsDelivered() async { await delivery.drain() }
}
