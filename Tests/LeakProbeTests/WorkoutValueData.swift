import Foundation
import HealthModel
import HealthWire

/// The workouts of `WorkoutValueWorld`: the other app's (`ProbeData.hiddenWorkout`: energy and
/// distance totals, heart-rate and energy statistics, a running activity with heart-rate
/// statistics and a walking one with energy statistics), or its twin without the values of one
/// type — what the store would hold had that app never recorded samples of the type; and each
/// probing app's own, whose values it must keep whatever it may read.
enum WorkoutValueData {
    static let energy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
    /// A run's distance type (`WorkoutValueTypes.distanceTypes`).
    static let distance = HKQuantityTypeIdentifier.distanceWalkingRunning.rawValue
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let valueTypes = [energy, distance, heartRate]
    static let shareTypes = [HKWorkoutTypeIdentifier] + valueTypes

    /// The other app's workout, without every value derived from `type` (nil: with all).
    static func otherWorkout(without type: String?) -> SampleRecord {
        var record = ProbeData.hiddenWorkout
        guard let type, case var .workout(workout) = record.value else { return record }
        if type == energy { workout.totalEnergyBurned = nil }
        if type == distance { workout.totalDistance = nil }
        workout.statistics.removeAll { $0.quantityType == type }
        for index in workout.activities.indices { workout.activities[index].statistics.removeAll { $0.quantityType == type } }
        record.value = .workout(workout)
        return record
    }

    /// Values only the probing apps' own workouts hold, exact in binary, to find in a reply.
    static let ownEnergy = 234.5625
    static let ownDistance = 7_654.25
    static let ownHeartRateMaximum = 3.3125

    /// A probing app's own run: every value the other app's has, so each predicate can match it.
    static func ownWorkout(from start: Int, to end: Int) -> SampleRecord {
        var record = ProbeData.workout(.running, from: start, to: end)
        let heartRates = WorkoutStatisticsRecord(quantityType: heartRate, startDate: ProbeData.time(start), endDate: ProbeData.time(end),
                                                 average: RecordedQuantity(2.75, unit: "count/s"),
                                                 maximum: RecordedQuantity(ownHeartRateMaximum, unit: "count/s"))
        let energySum = WorkoutStatisticsRecord(quantityType: energy, startDate: ProbeData.time(start), endDate: ProbeData.time(end),
                                                sum: RecordedQuantity(ownEnergy, unit: "kcal"))
        record.value = .workout(WorkoutValue(activityType: HKWorkoutActivityType.running.rawValue, duration: Double(end - start) * 60,
                                             totalEnergyBurned: RecordedQuantity(ownEnergy, unit: "kcal"),
                                             totalDistance: RecordedQuantity(ownDistance, unit: "m"), statistics: [heartRates, energySum]))
        return record
    }

    /// How `value` appears in a reply line: a protobuf double, little-endian, as hex.
    static func wireHex(_ value: Double) -> String {
        ProbeTranscript.hex(withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) })
    }
}
