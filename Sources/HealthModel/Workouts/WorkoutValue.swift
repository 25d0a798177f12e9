public import Foundation

/// What an `HKWorkout` holds beyond any sample's dates, metadata and device, as plain values:
/// the value of a `SampleRecord` of type `HKWorkoutTypeIdentifier`.
///
/// Raw values rather than the enums: records also come from untrusted peers, and an unknown raw
/// value must reach `WorkoutValidator` (which names it) instead of failing somewhere in decoding.
public struct WorkoutValue: Hashable, Sendable {
    /// `HKWorkoutActivityType.rawValue`.
    public var activityType: UInt
    /// Seconds of activity: the span from start to end minus paused time (see `activeDuration`).
    public var duration: TimeInterval
    /// An energy quantity; the broker stores it in kilocalories.
    public var totalEnergyBurned: RecordedQuantity?
    /// A length quantity; the broker stores it in meters.
    public var totalDistance: RecordedQuantity?
    /// In chronological order (the validator requires it).
    public var events: [WorkoutEventRecord]
    /// A count quantity; stored in count.
    public var totalSwimmingStrokeCount: RecordedQuantity?
    /// A count quantity; stored in count.
    public var totalFlightsClimbed: RecordedQuantity?
    /// iOS 16's activities, in chronological order and not overlapping (the validator requires it).
    public var activities: [WorkoutActivityRecord]
    /// The builder's statistics over the whole workout, at most one per quantity type.
    public var statistics: [WorkoutStatisticsRecord]
    /// Samples of the saving app to associate with the workout as it is stored (HKWorkoutBuilder);
    /// only sent on a save, never returned by a query.
    public var associatedSampleUUIDs: [UUID]

    public init(activityType: UInt, duration: TimeInterval, totalEnergyBurned: RecordedQuantity? = nil,
                totalDistance: RecordedQuantity? = nil, events: [WorkoutEventRecord] = [],
                totalSwimmingStrokeCount: RecordedQuantity? = nil, totalFlightsClimbed: RecordedQuantity? = nil,
                activities: [WorkoutActivityRecord] = [], statistics: [WorkoutStatisticsRecord] = [],
                associatedSampleUUIDs: [UUID] = []) {
        self.activityType = activityType
        self.duration = duration
        self.totalEnergyBurned = totalEnergyBurned
        self.totalDistance = totalDistance
        self.events = events
        self.totalSwimmingStrokeCount = totalSwimmingStrokeCount
        self.totalFlightsClimbed = totalFlightsClimbed
        self.activities = activities
        self.statistics = statistics
        self.associatedSampleUUIDs = associatedSampleUUIDs
    }

    /// HealthKit's duration for a workout made without an explicit one: the time from `start`
    /// to `end` minus the time between each `pause` and the `resume` that follows it (a pause
    /// with no resume lasts to the end). Motion pauses are not subtracted: they are the
    /// device's guess, and HealthKit leaves them to the app. Used by the SDK; the broker only
    /// checks that a duration is between 0 and the workout's span.
    public static func activeDuration(start: Date, end: Date, events: [WorkoutEventRecord]) -> TimeInterval {
        var paused: TimeInterval = 0
        var pausedSince: Date?
        for event in events.sorted(by: { $0.startDate < $1.startDate }) {
            switch HKWorkoutEventType(rawValue: event.type) {
            case .pause where pausedSince == nil:
                pausedSince = max(start, min(end, event.startDate))
            case .resume:
                if let since = pausedSince {
                    paused += max(0, min(end, event.startDate).timeIntervalSince(since))
                    pausedSince = nil
                }
            default:
                break
            }
        }
        if let since = pausedSince { paused += max(0, end.timeIntervalSince(since)) }
        return max(0, end.timeIntervalSince(start) - paused)
    }
}

/// A quantity as the wire and the store carry it: a value and its HKUnit string.
public struct RecordedQuantity: Hashable, Sendable {
    public var value: Double
    public var unit: String

    public init(_ value: Double, unit: String) {
        self.value = value
        self.unit = unit
    }
}

/// `HKWorkoutEvent` as plain values.
public struct WorkoutEventRecord: Hashable, Sendable {
    /// `HKWorkoutEventType.rawValue`.
    public var type: Int
    public var startDate: Date
    public var endDate: Date
    public var metadata: [String: MetadataValue]

    public init(type: Int, startDate: Date, endDate: Date, metadata: [String: MetadataValue] = [:]) {
        self.type = type
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
    }
}
