public import Foundation
import Synchronization

/// Builds a workout incrementally, as HealthKit's `HKWorkoutBuilder`: begin collection, add
/// samples, events, metadata and activities, end collection, then `finishWorkout()` saves one
/// `HKWorkout` with its events, activities, statistics and totals and associates the app's
/// samples with it — in the one save, so while the store is locked it is journaled like any
/// save and merged at unlock with its associations.
///
/// Samples handed to `add(_:)` that were never saved are saved then (HealthKit's builder saves
/// what it is given); samples already stored are only collected. Only the app's own samples are
/// associated with the workout (healthd's rule, and the SDK sends no others); every collected
/// sample counts in the statistics.
public class HKWorkoutBuilder: NSObject, @unchecked Sendable {
    // @unchecked: all mutable state is in `contents` (a Mutex); the rest is immutable.
    public let workoutConfiguration: HKWorkoutConfiguration
    public let device: HKDevice?
    let healthStore: HKHealthStore

    enum Phase: String {
        case notStarted = "not started", collecting, ended, finished, discarded
    }

    struct Contents {
        var phase: Phase = .notStarted
        var startDate: Date?
        var endDate: Date?
        var events: [HKWorkoutEvent] = []
        var metadata: [String: MetadataValue] = [:]
        /// Collected and added samples by UUID (broker UUIDs), in the order they arrived.
        var samples: [UUID: HKSample] = [:]
        var sampleOrder: [UUID] = []
        var activities: [HKWorkoutActivity] = []
        /// The workout `finishWorkout` saved, kept while its route is still to be finished.
        var savedWorkout: HKWorkout?
    }

    let contents = Mutex(Contents())
    /// The route builder `seriesBuilder(for: .workoutRoute())` made (HKWorkoutBuilder+SeriesBuilders).
    let routeBuilder = Mutex<HKWorkoutRouteBuilder?>(nil)

    public init(healthStore: HKHealthStore, configuration: HKWorkoutConfiguration, device: HKDevice?) {
        self.healthStore = healthStore
        workoutConfiguration = configuration.snapshot()
        self.device = device
        super.init()
    }

    public var startDate: Date? { contents.withLock { $0.startDate } }
    public var endDate: Date? { contents.withLock { $0.endDate } }
    public var workoutEvents: [HKWorkoutEvent] { contents.withLock { $0.events } }
    public var metadata: [String: Any] { contents.withLock { $0.metadata }.mapValues(\.anyValue) }
    public var workoutActivities: [HKWorkoutActivity] { contents.withLock { $0.activities } }

    /// The statistics of the samples of `quantityType` the builder holds, from its start to its
    /// end (or now, while collecting); nil when it holds none.
    public func statistics(for quantityType: HKQuantityType) -> HKStatistics? {
        let (samples, start, end) = snapshotForStatistics()
        guard let start else { return nil }
        return WorkoutBuilderStatistics.statistics(of: quantityType, samples: samples, from: start, to: end)
    }

    public var allStatistics: [HKQuantityType: HKStatistics] {
        let (samples, start, end) = snapshotForStatistics()
        guard let start else { return [:] }
        return WorkoutBuilderStatistics.all(of: samples, from: start, to: end)
    }

    /// Seconds of activity at `date`: from the start to `date` (or the end, if earlier) minus
    /// the time between each pause event and the resume that follows it; 0 before beginning.
    public func elapsedTime(at date: Date) -> TimeInterval {
        let (start, end, events) = contents.withLock { ($0.startDate, $0.endDate, $0.events) }
        guard let start, date > start else { return 0 }
        let until = end.map { min($0, date) } ?? date
        return WorkoutValue.activeDuration(start: start, end: until, events: events.filter { $0.dateInterval.start <= until }.map(\.record))
    }

    // MARK: Collection

    public func beginCollection(at startDate: Date) async throws {
        try contents.withLock { (contents) throws(HKError) in
            guard contents.phase == .notStarted else { throw Self.phaseError("begin collection", contents.phase) }
            contents.phase = .collecting
            contents.startDate = startDate
        }
        try await didBeginCollection(at: startDate)
    }

    /// The live builder starts its data source here.
    func didBeginCollection(at startDate: Date) async throws {}

    public func endCollection(at endDate: Date) async throws {
        try contents.withLock { (contents) throws(HKError) in
            guard contents.phase == .collecting else { throw Self.phaseError("end collection", contents.phase) }
            if let start = contents.startDate, endDate < start {
                throw HKError(.errorInvalidArgument, "the workout's end date must not be before its start date")
            }
            contents.phase = .ended
            contents.endDate = endDate
        }
        didEndCollection()
    }

    /// The live builder stops its data source here.
    func didEndCollection() {}

    /// Adds samples to the workout. Samples never saved are saved now (all or none), then
    /// collected; samples already stored are collected as they are.
    public func addSamples(_ samples: [HKSample]) async throws {
        try requireCollecting("add samples")
        let unsaved = samples.filter { Self.isUnsaved($0) }
        if !unsaved.isEmpty { try await healthStore.save(unsaved) }
        _ = collect(samples)
    }

    public func addWorkoutEvents(_ workoutEvents: [HKWorkoutEvent]) async throws {
        try requireCollecting("add workout events")
        if let error = workoutEvents.lazy.compactMap(\.metadataError).first { throw error }
        contents.withLock { contents in
            contents.events.append(contentsOf: workoutEvents)
            contents.events.sort { $0.dateInterval.start < $1.dateInterval.start }
        }
    }

    /// Merges `metadata` into the workout's (a key given again replaces its value).
    public func addMetadata(_ metadata: [String: Any]) async throws {
        try requireCollecting("add metadata")
        let (values, error) = MetadataConversion.convert(metadata)
        if let error { throw error }
        contents.withLock { $0.metadata.merge(values ?? [:]) { _, new in new } }
    }

    /// Adds an activity; it must not overlap the activities already added.
    public func addWorkoutActivity(_ workoutActivity: HKWorkoutActivity) async throws {
        try requireCollecting("add a workout activity")
        try beginActivity(workoutActivity)
    }

    /// Ends activity `uuid` at `end` (or sets a new end).
    public func updateActivity(uuid: UUID, end endDate: Date) async throws {
        try requireCollecting("update a workout activity")
        try endActivity(uuid: uuid, at: endDate)
    }

    /// Adds `metadata` to activity `uuid`.
    public func updateActivity(uuid: UUID, adding metadata: [String: Any]) async throws {
        try requireCollecting("update a workout activity")
        let (values, error) = MetadataConversion.convert(metadata)
        if let error { throw error }
        try replaceActivity(uuid) { activity in
            HKWorkoutActivity(uuid: activity.uuid, configuration: activity.workoutConfiguration, start: activity.startDate,
                              end: activity.endDate, metadata: (activity.metadataValues ?? [:]).merging(values ?? [:]) { _, new in new },
                              events: activity.workoutEvents, statistics: activity.allStatistics)
        }
    }

    /// Saves the workout and returns it (its `uuid` is healthd's), then finishes the route of
    /// `seriesBuilder(for: .workoutRoute())` with it. Requires ended collection.
    ///
    /// The route is finished only after the workout is saved (healthd associates a route with a
    /// stored workout only), so a refused workout leaves no route behind: the locations stay in
    /// healthd's unfinished route and the builder stays ended, to be finished again. If the
    /// workout was saved but its route was refused, the error is thrown and calling
    /// `finishWorkout()` again retries the route and returns the same workout, never a second one.
    public func finishWorkout() async throws -> HKWorkout? {
        if let saved = savedWorkoutWithUnfinishedRoute() {
            try await finishSeries(of: saved)
            return saved
        }
        try requirePhase(.ended, "finish the workout")
        // Only the app's own samples can be associated (healthd skips the rest), so only theirs
        // are sent: a long session collecting another app's heart rate stays well inside the
        // association limit. Fetched samples name their source; samples this builder saved
        // were never fetched and carry the unsaved source's empty bundle identifier.
        let ownBundle = HKSource.default().bundleIdentifier
        let shareable = shareableTypes(of: contents.withLock { contents in
            contents.sampleOrder.compactMap { (contents.samples[$0] as? HKQuantitySample)?.quantityType }
        })
        let workout = try contents.withLock { (contents) throws(HKError) -> HKWorkout in
            guard contents.phase == .ended, let start = contents.startDate, let end = contents.endDate else {
                throw Self.phaseError("finish the workout", contents.phase)
            }
            let own = contents.sampleOrder.filter { uuid in
                let bundle = contents.samples[uuid]?.sourceRevision.source.bundleIdentifier
                return bundle == ownBundle || bundle == ""
            }
            return try makeWorkout(contents, start: start, end: end, associating: own, statisticsOf: shareable)
        }
        try await healthStore.save(workout)
        contents.withLock { contents in
            contents.phase = .finished
            contents.savedWorkout = workout
        }
        try await finishSeries(of: workout)
        return workout
    }

    /// Stops collecting and forgets everything; nothing is saved.
    public func discardWorkout() {
        let wasCollecting = contents.withLock { contents in
            let was = contents.phase == .collecting
            contents = Contents()
            contents.phase = .discarded
            return was
        }
        routeBuilder.withLock { $0 }?.discard()
        if wasCollecting { didEndCollection() }
    }

    // MARK: Completion-handler forms

    @preconcurrency
    public func beginCollection(withStart startDate: Date, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.beginCollection(at: startDate) }
    }

    @preconcurrency
    public func endCollection(withEnd endDate: Date, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.endCollection(at: endDate) }
    }

    @preconcurrency
    public func add(_ samples: [HKSample], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.addSamples(samples) }
    }

    @preconcurrency
    public func addWorkoutEvents(_ workoutEvents: [HKWorkoutEvent], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.addWorkoutEvents(workoutEvents) }
    }

    @preconcurrency
    public func addMetadata(_ metadata: [String: Any], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let box = UncheckedBox(value: metadata)
        complete(completion) { try await self.addMetadata(box.value) }
    }

    @preconcurrency
    public func addWorkoutActivity(_ workoutActivity: HKWorkoutActivity, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.addWorkoutActivity(workoutActivity) }
    }

    @preconcurrency
    public func updateActivity(uuid: UUID, end endDate: Date, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.updateActivity(uuid: uuid, end: endDate) }
    }

    /// Apple's completion form of `updateActivity(uuid:adding:)`. The metadata dictionary is not
    /// Sendable; it is boxed as addMetadata's is, and only the task reads it.
    @preconcurrency
    public func updateActivity(uuid: UUID, adding metadata: [String: Any], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let box = UncheckedBox(value: metadata)
        complete(completion) { try await self.updateActivity(uuid: uuid, adding: box.value) }
    }

    @preconcurrency
    public func finishWorkout(completion: @escaping @Sendable (HKWorkout?, (any Error)?) -> Void) {
        Task {
            do {
                completion(try await finishWorkout(), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    // MARK: Internals shared with the live builder

    /// Adds samples not held yet; returns the types of those that were new.
    func collect(_ samples: [HKSample]) -> Set<HKSampleType> {
        contents.withLock { contents in
            guard contents.phase == .collecting else { return [] }
            var types = Set<HKSampleType>()
            for sample in samples where contents.samples[sample.uuid] == nil {
                contents.samples[sample.uuid] = sample
                contents.sampleOrder.append(sample.uuid)
                types.insert(sample.sampleType)
            }
            return types
        }
    }

    var activityInProgress: HKWorkoutActivity? {
        contents.withLock { $0.activities.last.flatMap { $0.endDate == nil ? $0 : nil } }
    }

    func beginActivity(_ activity: HKWorkoutActivity) throws(HKError) {
        if let error = activity.metadataError { throw error }
        try contents.withLock { (contents) throws(HKError) in
            if let last = contents.activities.last {
                guard let lastEnd = last.endDate else {
                    throw HKError(.errorInvalidArgument, "the current workout activity must end before another begins")
                }
                guard activity.startDate >= lastEnd else {
                    throw HKError(.errorInvalidArgument, "a workout activity must not begin before the previous one ended")
                }
            }
            if let start = contents.startDate, activity.startDate < start {
                throw HKError(.errorInvalidArgument, "a workout activity must not begin before the workout")
            }
            contents.activities.append(activity)
        }
    }

    func endActivity(uuid: UUID, at endDate: Date) throws(HKError) {
        try replaceActivity(uuid) { (activity) throws(HKError) in
            guard endDate >= activity.startDate else {
                throw HKError(.errorInvalidArgument, "a workout activity must not end before it begins")
            }
            return HKWorkoutActivity(uuid: activity.uuid, configuration: activity.workoutConfiguration, start: activity.startDate,
                                     end: endDate, metadata: activity.metadataValues, events: activity.workoutEvents,
                                     statistics: activity.allStatistics)
        }
    }

    private func replaceActivity(_ uuid: UUID, _ change: (HKWorkoutActivity) throws(HKError) -> HKWorkoutActivity) throws(HKError) {
        try contents.withLock { (contents) throws(HKError) in
            guard let index = contents.activities.firstIndex(where: { $0.uuid == uuid }) else {
                throw HKError(.errorInvalidArgument, "the builder has no workout activity with that UUID")
            }
            contents.activities[index] = try change(contents.activities[index])
        }
    }

    func appendEvent(_ event: HKWorkoutEvent) -> Bool {
        contents.withLock { contents in
            guard contents.phase == .collecting else { return false }
            contents.events.append(event)
            return true
        }
    }

    func requireCollecting(_ action: String) throws(HKError) {
        try requirePhase(.collecting, action)
    }

    private func requirePhase(_ required: Phase, _ action: String) throws(HKError) {
        let phase = contents.withLock { $0.phase }
        guard phase == required else { throw Self.phaseError(action, phase) }
    }

    static func phaseError(_ action: String, _ phase: Phase) -> HKError {
        HKError(.errorInvalidArgument, "cannot \(action): the workout builder is \(phase.rawValue)")
    }

    /// Whether `sample` carries the SDK's placeholder UUID (version 4, `RandomUUID`) rather than
    /// one healthd assigned (version 7): never saved.
    static func isUnsaved(_ sample: HKSample) -> Bool {
        sample.uuid.uuid.6 >> 4 == 4
    }

    private func snapshotForStatistics() -> ([HKQuantitySample], Date?, Date) {
        contents.withLock { contents in
            (contents.sampleOrder.compactMap { contents.samples[$0] as? HKQuantitySample }, contents.startDate,
             contents.endDate ?? Date())
        }
    }

    /// Of the quantity types the builder collected, those this app may share. healthd stores a
    /// workout's statistics of a type only from an app with share permission for it
    /// (`SampleRecord.forEachShareTypeIdentifier`: a statistic is a value of its type, and an app
    /// must not write values of a type the user did not let it write). Samples the app added
    /// itself were saved by `addSamples` and needed that permission already (HealthKit refuses
    /// such a save with errorAuthorizationDenied, "The user hasn't given the app permission to
    /// save data"); samples of another app collected from the store (the live data source, or
    /// stored samples added) may be of a type the app only reads. HealthKit computes a live
    /// workout's statistics in its own daemon from the device's sensors; here the app computes
    /// them, so healthd cannot tell real ones from invented ones and the builder leaves out the
    /// types it may not share rather than have the whole workout refused.
    private func shareableTypes(of collected: [HKQuantityType]) -> Set<HKQuantityType> {
        Set(Set(collected).filter { healthStore.authorizationStatus(for: $0) == .sharingAuthorized })
    }

    /// The workout `finishWorkout` saves: the builder's dates, events and metadata (the
    /// configuration's location metadata where the app set none), activities ended and with
    /// their statistics, the workout's statistics, and totals from the sums of active energy,
    /// the activity's distance type, swimming strokes and flights climbed — statistics and
    /// totals from the collected samples of `shareable` types only (`shareableTypes(of:)`).
    private func makeWorkout(_ contents: Contents, start: Date, end: Date, associating: [UUID],
                             statisticsOf shareable: Set<HKQuantityType>) throws(HKError) -> HKWorkout {
        let samples = contents.sampleOrder.compactMap { contents.samples[$0] as? HKQuantitySample }
            .filter { shareable.contains($0.quantityType) }
        let statistics = WorkoutBuilderStatistics.all(of: samples, from: start, to: end)
        let activities = contents.activities.map { activity in
            let activityEnd = activity.endDate ?? end
            let events = contents.events.filter { $0.dateInterval.start >= activity.startDate && $0.dateInterval.start <= activityEnd }
            return HKWorkoutActivity(uuid: activity.uuid, configuration: activity.workoutConfiguration, start: activity.startDate,
                                     end: activityEnd, metadata: activity.metadataValues, events: events,
                                     statistics: WorkoutBuilderStatistics.all(of: samples, from: activity.startDate, to: activityEnd))
        }
        let sum = { (identifier: HKQuantityTypeIdentifier) in statistics[HKQuantityType(identifier)]?.sumQuantity() }
        let distance = WorkoutDistanceTypes.identifiers(for: workoutConfiguration.activityType).lazy.compactMap(sum).first
        var metadata = workoutConfiguration.workoutMetadata
        metadata.merge(contents.metadata.mapValues(\.anyValue)) { _, app in app }
        let events = contents.events.sorted { $0.dateInterval.start < $1.dateInterval.start }
        return HKWorkout(activityType: workoutConfiguration.activityType, start: start, end: end, workoutEvents: events,
                         duration: WorkoutValue.activeDuration(start: start, end: end, events: events.map(\.record)),
                         totalEnergyBurned: sum(.activeEnergyBurned), totalDistance: distance,
                         totalSwimmingStrokeCount: sum(.swimmingStrokeCount), totalFlightsClimbed: sum(.flightsClimbed),
                         activities: activities, statistics: statistics, associating: associating,
                         device: device, metadata: metadata.isEmpty ? nil : metadata)
    }
}

/// Which distance type a workout's total distance comes from, by activity, as HealthKit's
/// builder picks it: the one table healthd also uses to decide who may see that total
/// (`WorkoutValueTypes`), so the builder never sums a type the store would judge differently.
enum WorkoutDistanceTypes {
    static func identifiers(for activity: HKWorkoutActivityType) -> [HKQuantityTypeIdentifier] {
        WorkoutValueTypes.distanceTypes(activityType: activity.rawValue).map(HKQuantityTypeIdentifier.init(rawValue:))
    }
}
