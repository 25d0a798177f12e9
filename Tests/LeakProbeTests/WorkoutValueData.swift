import Foundation
import HealthModel
import HealthWire

/// The workouts of `WorkoutValueWorld`: the other app's (`otherWorkouts`: a run with energy and
/// distance totals, heart-rate and energy statistics, a running activity with heart-rate
/// statistics and a walking one with energy statistics; a row; a triathlon whose legs swim, ride
/// and run), or their twins without the values of one type — what the store would hold had that
/// app never recorded samples of the type; and each probing app's own, whose values it must keep
/// whatever it may read.
enum WorkoutValueData {
    static let energy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
    /// A run's distance type (`WorkoutValueTypes.distanceTypes`).
    static let distance = HKQuantityTypeIdentifier.distanceWalkingRunning.rawValue
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    /// A row's distance type since iOS 18 ("During outdoor rowing workouts, the system
    /// automatically collects distance samples": developer.apple.com/documentation/healthkit/
    /// hkquantitytypeidentifier/distancerowing).
    static let rowingDistance = HKQuantityTypeIdentifier.distanceRowing.rawValue
    static let cyclingDistance = HKQuantityTypeIdentifier.distanceCycling.rawValue
    static let swimmingDistance = HKQuantityTypeIdentifier.distanceSwimming.rawValue
    static let valueTypes = [energy, distance, heartRate, rowingDistance, cyclingDistance, swimmingDistance]
    static let shareTypes = [HKWorkoutTypeIdentifier] + valueTypes

    /// The other app's workouts, each with the distance types its total distance is the sum of:
    /// the type its activity's distance is recorded as, for every leg of a multisport workout.
    static let otherWorkouts: [(record: SampleRecord, distanceFrom: [String])] = [
        (ProbeData.hiddenWorkout, [distance]),
        (rowingWorkout, [rowingDistance]),
        (triathlon, [swimmingDistance, cyclingDistance, distance]),
    ]

    /// The other app's workouts, without every value derived from `type` (nil: with all).
    static func otherWorkouts(without type: String?) -> [SampleRecord] {
        otherWorkouts.map { record, distanceFrom in
            guard let type, case var .workout(workout) = record.value else { return record }
            var twin = record
            if type == energy { workout.totalEnergyBurned = nil }
            if distanceFrom.contains(type) { workout.totalDistance = nil }
            workout.statistics.removeAll { $0.quantityType == type }
            for index in workout.activities.indices { workout.activities[index].statistics.removeAll { $0.quantityType == type } }
            twin.value = .workout(workout)
            return twin
        }
    }

    private static func sum(_ type: String, _ meters: Double, from start: Int, to end: Int) -> WorkoutStatisticsRecord {
        WorkoutStatisticsRecord(quantityType: type, startDate: ProbeData.time(start), endDate: ProbeData.time(end),
                                sum: RecordedQuantity(meters, unit: "m"))
    }

    /// A 6 km row, after every other workout of the world but the triathlon.
    static let rowingWorkout: SampleRecord = {
        var record = ProbeData.workout(.rowing, from: 200, to: 230)
        record.value = .workout(WorkoutValue(activityType: HKWorkoutActivityType.rowing.rawValue, duration: 30 * 60,
                                             totalDistance: RecordedQuantity(6000, unit: "m"),
                                             statistics: [sum(rowingDistance, 6000, from: 200, to: 230)]))
        return record
    }()

    /// A triathlon (iOS 16's multisport workout): 1.5 km swum, 40 km ridden, 10 km run, 51.5 km
    /// in all — the longest distance of the world.
    static let triathlon: SampleRecord = {
        var record = ProbeData.workout(.swimBikeRun, from: 300, to: 390)
        func leg(_ activity: HKWorkoutActivityType, _ number: Int, _ type: String, _ meters: Double, from start: Int) -> WorkoutActivityRecord {
            WorkoutActivityRecord(uuid: UUID(uuidString: "0000A000-0000-4000-8000-00000000010\(number)") ?? UUID(),
                                  activityType: activity.rawValue, locationType: HKWorkoutSessionLocationType.outdoor.rawValue,
                                  swimmingLocationType: activity == .swimming ? HKWorkoutSwimmingLocationType.openWater.rawValue : 0,
                                  startDate: ProbeData.time(start), endDate: ProbeData.time(start + 30),
                                  statistics: [sum(type, meters, from: start, to: start + 30)])
        }
        record.value = .workout(WorkoutValue(
            activityType: HKWorkoutActivityType.swimBikeRun.rawValue, duration: 90 * 60, totalDistance: RecordedQuantity(51_500, unit: "m"),
            activities: [leg(.swimming, 1, swimmingDistance, 1500, from: 300), leg(.cycling, 2, cyclingDistance, 40_000, from: 330),
                         leg(.running, 3, distance, 10_000, from: 360)],
            statistics: [sum(swimmingDistance, 1500, from: 300, to: 330), sum(cyclingDistance, 40_000, from: 330, to: 360),
                         sum(distance, 10_000, from: 360, to: 390)]))
        return record
    }()

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
