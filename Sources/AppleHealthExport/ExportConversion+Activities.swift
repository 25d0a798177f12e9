public import Foundation
public import HealthModel

/// iOS 16's `WorkoutActivity` elements as the workout's activities (`HKWorkoutActivity`, stored
/// by migration v20's tables). Apple's element carries no activity type or location: HealthKit
/// gives a workout's activities the workout's configuration unless a multisport workout says
/// otherwise, and the export writes the rest as metadata — `HKIndoorWorkout` (location),
/// `HKSwimmingLocationType` and `HKLapLength` (a swim's configuration). Those entries stay in the
/// activity's metadata too, so an export writes them back unchanged.
extension ExportConversion {
    static func workoutActivities(_ workout: ExportWorkout, activityType: UInt,
                                  header: ExportSampleHeader) throws(ImportRefusal) -> [WorkoutActivityRecord] {
        var result: [WorkoutActivityRecord] = []
        for (index, activity) in workout.activities.enumerated() {
            let end: Date
            if let endDate = activity.endDate {
                end = endDate
            } else if let duration = activity.duration {
                end = activity.startDate.addingTimeInterval(try seconds(duration))
            } else {
                end = header.endDate  // an activity still open when the workout ended lasts to its end
            }
            let metadata = metadata(activity.metadata, type: HKWorkoutTypeIdentifier)
            result.append(WorkoutActivityRecord(
                uuid: try uuid(of: activity, index: index, header: header), activityType: activityType,
                locationType: locationType(metadata), swimmingLocationType: swimmingLocationType(metadata),
                lapLength: lapLength(metadata), startDate: activity.startDate, endDate: end, metadata: metadata,
                statistics: statistics(activity.statistics, from: activity.startDate, to: end)))
        }
        return result
    }

    /// The activity's own UUID; the DTD requires one, but a file another tool wrote may lack it:
    /// then one derived from the workout and the activity's place in it, the same on every import.
    private static func uuid(of activity: ExportWorkoutActivity, index: Int,
                             header: ExportSampleHeader) throws(ImportRefusal) -> UUID {
        if let text = activity.uuid {
            guard let uuid = UUID(uuidString: text) else {
                throw ImportRefusal(type: HKWorkoutTypeIdentifier, reason: "a workout activity's uuid is not a UUID")
            }
            return uuid
        }
        let hex = Array(StableHash.hex([header.type, "\(header.startDate.microsecondsSince1970)", header.source.name ?? "",
                                        "activity", "\(index)"].joined(separator: "\u{1F}")))
        let groups = [hex[0..<8], hex[8..<12], hex[12..<16], hex[16..<20], hex[20..<32]].map { String($0) }
        // Always parses: 32 hex digits in the 8-4-4-4-12 groups a UUID string has.
        return UUID(uuidString: groups.joined(separator: "-")) ?? UUID()
    }

    /// `HKWorkoutSessionLocationType` raw values: unknown 1, indoor 2, outdoor 3.
    static func locationType(_ metadata: [String: MetadataValue]) -> Int {
        switch metadata[HKMetadataKeyIndoorWorkout] {
        case .bool(true)?: 2
        case .bool(false)?: 3
        default: 1
        }
    }

    /// `HKWorkoutSwimmingLocationType` raw values (unknown 0, pool 1, open water 2); others unknown.
    static func swimmingLocationType(_ metadata: [String: MetadataValue]) -> Int {
        guard case let .number(value)? = metadata[HKMetadataKeySwimmingLocationType], value == value.rounded(),
              (0...2).contains(value) else { return 0 }
        return Int(value)
    }

    static func lapLength(_ metadata: [String: MetadataValue]) -> RecordedQuantity? {
        guard case let .quantity(value, unit)? = metadata[HKMetadataKeyLapLength] else { return nil }
        return RecordedQuantity(value, unit: unit)
    }
}
