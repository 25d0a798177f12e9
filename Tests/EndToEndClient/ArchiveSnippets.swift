import Foundation
import HealthKit

/// `snippet archive-statistics`: a statistics result and a workout configuration kept the way
/// apps keep them (a widget's cached total, a planned workout handed to a companion), with
/// `NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding: true)` and
/// `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)`. Prints the total and the app's own total
/// before and after the archive, and whether the configuration came back equal.
func archiveStatisticsAndConfiguration(_ healthStore: HKHealthStore) async throws {
    let stepType = HKQuantityType(.stepCount)
    let descriptor = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: stepType),
                                                 options: [.cumulativeSum, .separateBySource])
    guard let statistics = try await descriptor.result(for: healthStore) else {
        print("no statistics")
        return
    }
    let data = try NSKeyedArchiver.archivedData(withRootObject: statistics, requiringSecureCoding: true)
    let restored = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKStatistics.self, from: data)

    let configuration = HKWorkoutConfiguration()
    configuration.activityType = .swimming
    configuration.swimmingLocationType = .pool
    configuration.lapLength = HKQuantity(unit: .meter(), doubleValue: 25)
    let configurationData = try NSKeyedArchiver.archivedData(withRootObject: configuration, requiringSecureCoding: true)
    let restoredConfiguration = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKWorkoutConfiguration.self,
                                                                       from: configurationData)

    let total = { (statistics: HKStatistics?) in
        statistics?.sumQuantity()?.doubleValue(for: .count()).description ?? "nil"
    }
    let own = { (statistics: HKStatistics?) in
        statistics?.sumQuantity(for: HKSource.default())?.doubleValue(for: .count()).description ?? "nil"
    }
    print("ok \(total(statistics)) \(total(restored)) \(own(statistics)) \(own(restored)) "
          + "\(restored?.sources?.count ?? -1) \(restoredConfiguration == configuration) "
          + "\(restoredConfiguration?.lapLength == configuration.lapLength)")
}
