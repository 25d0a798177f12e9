public import Foundation

/// `HKWorkoutActivity` as plain values: one activity of a workout (iOS 16's multi-activity
/// model), with the configuration it was recorded under. Raw values for the enums, as in
/// `WorkoutValue`, so an unknown one reaches `WorkoutValidator`, which names it.
public struct WorkoutActivityRecord: Hashable, Sendable {
    /// Chosen by the client; the broker checks only that it is unique within the workout.
    public var uuid: UUID
    /// `HKWorkoutActivityType.rawValue`.
    public var activityType: UInt
    /// `HKWorkoutSessionLocationType.rawValue`.
    public var locationType: Int
    /// `HKWorkoutSwimmingLocationType.rawValue`.
    public var swimmingLocationType: Int
    /// A length; stored in meters.
    public var lapLength: RecordedQuantity?
    public var startDate: Date
    public var endDate: Date
    public var metadata: [String: MetadataValue]
    public var statistics: [WorkoutStatisticsRecord]

    public init(uuid: UUID, activityType: UInt, locationType: Int, swimmingLocationType: Int,
                lapLength: RecordedQuantity? = nil, startDate: Date, endDate: Date,
                metadata: [String: MetadataValue] = [:], statistics: [WorkoutStatisticsRecord] = []) {
        self.uuid = uuid
        self.activityType = activityType
        self.locationType = locationType
        self.swimmingLocationType = swimmingLocationType
        self.lapLength = lapLength
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.statistics = statistics
    }
}

/// `HKStatistics` of one quantity type over a workout or one of its activities, as the builder
/// computed them when the workout was finished. Each quantity is in the type's canonical unit
/// once validated; nil means the builder did not compute it (a sum of heart rate, say).
public struct WorkoutStatisticsRecord: Hashable, Sendable {
    /// An `HKQuantityTypeIdentifier` raw value.
    public var quantityType: String
    public var startDate: Date
    public var endDate: Date
    public var sum: RecordedQuantity?
    public var average: RecordedQuantity?
    public var minimum: RecordedQuantity?
    public var maximum: RecordedQuantity?
    public var mostRecent: RecordedQuantity?

    public init(quantityType: String, startDate: Date, endDate: Date, sum: RecordedQuantity? = nil,
                average: RecordedQuantity? = nil, minimum: RecordedQuantity? = nil,
                maximum: RecordedQuantity? = nil, mostRecent: RecordedQuantity? = nil) {
        self.quantityType = quantityType
        self.startDate = startDate
        self.endDate = endDate
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.mostRecent = mostRecent
    }
}
