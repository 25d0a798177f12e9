import Foundation
import Testing
import HealthModel

/// `WorkoutValueTypes`: which quantity types a workout's total distance is derived from — the
/// table that decides who may see it (`WorkoutValueScopes` in the store) and which type the
/// SDK's builder sums. A type the table forgets is a type whose data a reader denied it could
/// read through another app's workouts, so these tests check the table against every distance
/// type HealthKit has and against Apple's documented activity of each.
@Suite(.timeLimit(.minutes(10))) struct WorkoutValueTypesTests {
    /// Every `HKQuantityTypeIdentifierDistance…` type.
    static let distanceTypes = HKObjectType.allTypes.compactMap { ($0 as? HKQuantityType)?.identifier }
        .filter { $0.hasPrefix("HKQuantityTypeIdentifierDistance") }

    /// A distance type added to HealthKit's table (as iOS 18 added four) must be given to the
    /// activities it measures, or a workout of those activities shows its distance to readers
    /// who may not read the type.
    @Test func everyDistanceTypeIsNamedForSomeActivity() {
        #expect(Self.distanceTypes.count >= 9)
        let named = Set(WorkoutValueTypes.distanceGroups.flatMap(\.types) + WorkoutValueTypes.otherDistanceTypes)
        for type in Self.distanceTypes {
            #expect(named.contains(type), "\(type) is no activity's distance type")
        }
    }

    /// Apple's documentation of each distance type names the workouts it is recorded in
    /// ("During outdoor rowing workouts, the system automatically collects distance samples":
    /// developer.apple.com/documentation/healthkit/hkquantitytypeidentifier/distancerowing; likewise
    /// …/distancepaddlesports, …/distanceskatingsports, …/distancecrosscountryskiing,
    /// …/distancecycling, …/distanceswimming, …/distancewheelchair, …/distancedownhillsnowsports).
    @Test(arguments: [
        (HKWorkoutActivityType.rowing, HKQuantityTypeIdentifier.distanceRowing),
        (.paddleSports, .distancePaddleSports),
        (.skatingSports, .distanceSkatingSports),
        (.crossCountrySkiing, .distanceCrossCountrySkiing),
        (.cycling, .distanceCycling),
        (.handCycling, .distanceCycling),
        (.swimming, .distanceSwimming),
        (.wheelchairRunPace, .distanceWheelchair),
        (.wheelchairWalkPace, .distanceWheelchair),
        (.downhillSkiing, .distanceDownhillSnowSports),
        (.snowboarding, .distanceDownhillSnowSports),
        (.running, .distanceWalkingRunning),
        (.walking, .distanceWalkingRunning),
    ])
    func theDocumentedTypeIsTheActivitysDistanceType(activity: HKWorkoutActivityType, type: HKQuantityTypeIdentifier) {
        let types = WorkoutValueTypes.distanceTypes(activityType: activity.rawValue)
        // First: the one the SDK's builder sums (`WorkoutDistanceTypes`).
        #expect(types.first == type.rawValue, "\(activity): \(types)")
    }

    /// A multisport workout's distance is the sum of its legs' (a triathlon swims, rides and
    /// runs), so it is derived from the distance type of every activity it holds, not only from
    /// its own activity type's.
    @Test func aMultisportWorkoutsDistanceComesFromEveryLegsType() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func leg(_ activity: HKWorkoutActivityType, _ index: Int) -> WorkoutActivityRecord {
            WorkoutActivityRecord(uuid: UUID(), activityType: activity.rawValue, locationType: HKWorkoutSessionLocationType.outdoor.rawValue,
                                  swimmingLocationType: 0, startDate: start.addingTimeInterval(Double(index) * 600),
                                  endDate: start.addingTimeInterval(Double(index + 1) * 600))
        }
        let triathlon = WorkoutValue(activityType: HKWorkoutActivityType.swimBikeRun.rawValue, duration: 1800,
                                     activities: [leg(.swimming, 0), leg(.cycling, 1), leg(.running, 2)])
        #expect(Set(WorkoutValueTypes.types(of: .distance, workout: triathlon))
                == [HKQuantityTypeIdentifier.distanceSwimming, .distanceCycling, .distanceWalkingRunning].map(\.rawValue).reduce(into: Set()) { $0.insert($1) })
        // Other totals have one type whatever the activities.
        #expect(WorkoutValueTypes.types(of: .energyBurned, workout: triathlon) == [HKQuantityTypeIdentifier.activeEnergyBurned.rawValue])
        #expect(WorkoutValueTypes.types(of: .duration, workout: triathlon).isEmpty)
    }
}
