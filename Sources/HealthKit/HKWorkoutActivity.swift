public import Foundation

/// One activity of a workout, as HealthKit's `HKWorkoutActivity` (iOS 16): a triathlon's swim,
/// bike and run, or an interval. Made by `HKWorkoutBuilder.addWorkoutActivity` or the
/// session's `beginNewActivity`, and returned with fetched workouts (`workoutActivities`).
///
/// `NSSecureCoding`, as Apple's (`HKWorkoutActivity+Coding.swift`), and `NSCopying`: the
/// activity's own fields are immutable, but its `workoutConfiguration` is a mutable class, so a
/// copy holds its own copy of it and a change through one activity never shows in the other.
public final class HKWorkoutActivity: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked: every stored property is immutable; the configuration is a private copy.
    public let uuid: UUID
    public let workoutConfiguration: HKWorkoutConfiguration
    public let startDate: Date
    /// nil while the activity is in progress.
    public let endDate: Date?
    /// The workout's events that fall within this activity.
    public let workoutEvents: [HKWorkoutEvent]
    public let allStatistics: [HKQuantityType: HKStatistics]
    public var metadata: [String: Any]? { metadataValues?.mapValues(\.anyValue) }

    let metadataValues: [String: MetadataValue]?
    /// Why part of the metadata cannot be stored; finishing the workout throws it.
    let metadataError: HKError?

    public init(workoutConfiguration: HKWorkoutConfiguration, start startDate: Date, end endDate: Date?,
                metadata: [String: Any]?) {
        uuid = RandomUUID.make()
        self.workoutConfiguration = workoutConfiguration.snapshot()
        self.startDate = startDate
        self.endDate = endDate
        workoutEvents = []
        allStatistics = [:]
        (metadataValues, metadataError) = MetadataConversion.convert(metadata)
    }

    /// Apple's Objective-C–style spelling of the same initializer.
    public convenience init(workoutConfiguration: HKWorkoutConfiguration, startDate: Date, endDate: Date?,
                            metadata: [String: Any]?) {
        self.init(workoutConfiguration: workoutConfiguration, start: startDate, end: endDate, metadata: metadata)
    }

    /// A builder's activity as it stands: same UUID, a new end, events or statistics.
    init(uuid: UUID, configuration: HKWorkoutConfiguration, start: Date, end: Date?,
         metadata: [String: MetadataValue]?, metadataError: HKError? = nil, events: [HKWorkoutEvent],
         statistics: [HKQuantityType: HKStatistics]) {
        self.uuid = uuid
        workoutConfiguration = configuration.snapshot()
        startDate = start
        endDate = end
        metadataValues = metadata
        self.metadataError = metadataError
        workoutEvents = events
        allStatistics = statistics
    }

    /// The activity of a fetched workout; nil for an enum raw value this SDK does not know.
    convenience init?(record: WorkoutActivityRecord, workoutEvents: [HKWorkoutEvent]) {
        guard let configuration = HKWorkoutConfiguration(record: record) else { return nil }
        let events = workoutEvents.filter { $0.dateInterval.start >= record.startDate && $0.dateInterval.start <= record.endDate }
        self.init(uuid: record.uuid, configuration: configuration, start: record.startDate, end: record.endDate,
                  metadata: record.metadata.isEmpty ? nil : record.metadata, events: events,
                  statistics: WorkoutStatisticsConversion.statistics(record.statistics))
    }

    /// Seconds of activity: to the end (or now, while in progress) minus paused time, as the
    /// workout's duration is computed.
    public var duration: TimeInterval {
        WorkoutValue.activeDuration(start: startDate, end: endDate ?? Date(), events: workoutEvents.map(\.record))
    }

    public func statistics(for quantityType: HKQuantityType) -> HKStatistics? { allStatistics[quantityType] }

    /// HealthKit compares activities by UUID.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKWorkoutActivity)?.uuid == uuid
    }

    public override var hash: Int { uuid.hashValue }

    /// The same activity (same UUID, so equal) with its own copy of the configuration.
    public func copy(with zone: NSZone? = nil) -> Any {
        HKWorkoutActivity(uuid: uuid, configuration: workoutConfiguration, start: startDate, end: endDate,
                          metadata: metadataValues, metadataError: metadataError, events: workoutEvents,
                          statistics: allStatistics)
    }
}

/// Between the stored statistics of a workout or activity and `HKStatistics`.
enum WorkoutStatisticsConversion {
    static func statistics(_ records: [WorkoutStatisticsRecord]) -> [HKQuantityType: HKStatistics] {
        var result: [HKQuantityType: HKStatistics] = [:]
        for record in records {
            guard let type = HKObjectType.type(forIdentifier: record.quantityType) as? HKQuantityType else { continue }
            let unit = type.canonicalUnit
            let value = { (quantity: RecordedQuantity?) -> Double? in
                guard let quantity else { return nil }
                return try? HKQuantity(unit: HKUnit(from: quantity.unit), doubleValue: quantity.value).value(in: unit)
            }
            let span = TimeSpan(start: record.startDate.microsecondsSince1970,
                                end: max(record.startDate, record.endDate).microsecondsSince1970)
            let values = StatisticsValues(sum: value(record.sum), average: value(record.average), minimum: value(record.minimum),
                                          maximum: value(record.maximum),
                                          mostRecent: value(record.mostRecent).map { StatisticsValues.MostRecent(value: $0, span: span) })
            result[type] = HKStatistics(type: type, result: StatisticsResult(span: span, merged: values), separateBySource: false)
        }
        return result
    }

    static func records(_ statistics: [HKQuantityType: HKStatistics]) -> [WorkoutStatisticsRecord] {
        statistics.values.sorted { $0.quantityType.identifier < $1.quantityType.identifier }.map { statistic in
            let record = { (quantity: HKQuantity?) in
                quantity.map { RecordedQuantity($0.doubleValue(for: statistic.quantityType.canonicalUnit),
                                                unit: statistic.quantityType.canonicalUnit.unitString) }
            }
            return WorkoutStatisticsRecord(quantityType: statistic.quantityType.identifier, startDate: statistic.startDate,
                                           endDate: statistic.endDate, sum: record(statistic.sumQuantity()),
                                           average: record(statistic.averageQuantity()), minimum: record(statistic.minimumQuantity()),
                                           maximum: record(statistic.maximumQuantity()), mostRecent: record(statistic.mostRecentQuantity()))
        }
    }
}
