import Foundation
import HealthKit

/// `snippet workout-activity-details`: what an app reads of each visible workout's activities
/// through the SDK (`HKWorkout.workoutActivities`), one line per activity with everything an
/// `HKWorkoutActivity` carries — configuration, dates, events, statistics, metadata — in a fixed
/// order, so a test can compare two stores' answers line for line (UUIDs included: an activity
/// keeps its own across an import, an export and a second import).
func workoutActivityDetails(_ healthStore: HKHealthStore) async throws {
    let descriptor = HKSampleQueryDescriptor(predicates: [.workout()], sortDescriptors: [SortDescriptor(\.startDate)])
    let workouts = try await descriptor.result(for: healthStore)
    var lines = 0
    for workout in workouts {
        for activity in workout.workoutActivities {
            let configuration = activity.workoutConfiguration
            let lap = configuration.lapLength.map { "\($0.doubleValue(for: .meter()))m" } ?? "-"
            let events = activity.workoutEvents.map { "\($0.type.rawValue)@\(Int($0.dateInterval.start.timeIntervalSince1970))" }
            let statistics = activity.allStatistics.values.sorted { $0.quantityType.identifier < $1.quantityType.identifier }.map { statistic in
                let unit = HKUnit.preferredUnitForTesting(statistic.quantityType)
                let values = [statistic.sumQuantity(), statistic.averageQuantity(), statistic.minimumQuantity(), statistic.maximumQuantity()]
                    .map { $0.map { "\($0.doubleValue(for: unit))" } ?? "-" }
                return "\(statistic.quantityType.identifier)=\(values.joined(separator: "/"))"
            }
            let metadata = (activity.metadata ?? [:]).map { "\($0.key)=\($0.value)" }.sorted()
            print("activity \(activity.uuid.uuidString) type \(configuration.activityType.rawValue) location \(configuration.locationType.rawValue)"
                  + " swimming \(configuration.swimmingLocationType.rawValue) lap \(lap)"
                  + " from \(Int(activity.startDate.timeIntervalSince1970)) to \(activity.endDate.map { "\(Int($0.timeIntervalSince1970))" } ?? "-")"
                  + " events \(events.isEmpty ? "-" : events.joined(separator: ","))"
                  + " statistics \(statistics.isEmpty ? "-" : statistics.joined(separator: ","))"
                  + " metadata \(metadata.isEmpty ? "-" : metadata.joined(separator: ","))")
            lines += 1
        }
    }
    print("ok \(workouts.count) \(lines)")
}

extension HKUnit {
    /// The unit a test reads a statistic in: metres for distances, count/min for heart rate.
    static func preferredUnitForTesting(_ type: HKQuantityType) -> HKUnit {
        switch type.identifier {
        case HKQuantityTypeIdentifier.heartRate.rawValue: .count().unitDivided(by: .minute())
        case let identifier where identifier.contains("Distance"): .meter()
        case let identifier where identifier.contains("Energy"): .kilocalorie()
        default: .count()
        }
    }
}
