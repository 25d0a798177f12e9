import Foundation
import HealthModel

/// Records for raw saves.
enum RawRecords {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func workout(activity: UInt = HKWorkoutActivityType.running.rawValue, events: [WorkoutEventRecord] = [],
                        duration: TimeInterval = 3600) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: start.addingTimeInterval(3600),
                     value: .workout(WorkoutValue(activityType: activity, duration: duration, events: events)))
    }

    static func heartRate(_ value: Double, minute: Int = 0) -> SampleRecord {
        let date = start.addingTimeInterval(Double(minute) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.heartRate.rawValue, startDate: date,
                            endDate: date, value: .quantity(value, unit: "count/min"))
    }
}
