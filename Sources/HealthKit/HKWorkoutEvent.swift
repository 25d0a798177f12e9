public import Foundation

/// Something that happened during a workout — a pause, a lap, a segment — as HealthKit's
/// `HKWorkoutEvent`. Laps and segments span an interval; the other types mark an instant (an
/// interval of zero duration). The broker checks this, and that events lie inside the workout.
public final class HKWorkoutEvent: Hashable, @unchecked Sendable {
    // @unchecked: every stored property is an immutable value.
    public let type: HKWorkoutEventType
    public let dateInterval: DateInterval
    /// The metadata as HealthKit hands it out (see `HKObject.metadata`).
    public var metadata: [String: Any]? { metadataValues?.mapValues(\.anyValue) }

    let metadataValues: [String: MetadataValue]?
    /// Why part of the metadata cannot be stored; saving the workout throws it.
    let metadataError: HKError?

    public init(type: HKWorkoutEventType, dateInterval: DateInterval, metadata: [String: Any]?) {
        self.type = type
        self.dateInterval = dateInterval
        (metadataValues, metadataError) = MetadataConversion.convert(metadata)
    }

    init(record: WorkoutEventRecord, type: HKWorkoutEventType) {
        self.type = type
        dateInterval = DateInterval(start: record.startDate, end: max(record.startDate, record.endDate))
        metadataValues = record.metadata.isEmpty ? nil : record.metadata
        metadataError = nil
    }

    var record: WorkoutEventRecord {
        WorkoutEventRecord(type: type.rawValue, startDate: dateInterval.start, endDate: dateInterval.end,
                           metadata: metadataValues ?? [:])
    }

    public static func == (lhs: HKWorkoutEvent, rhs: HKWorkoutEvent) -> Bool { lhs.record == rhs.record }
    public func hash(into hasher: inout Hasher) { hasher.combine(record) }
}
