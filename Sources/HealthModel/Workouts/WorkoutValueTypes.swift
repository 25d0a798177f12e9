/// Which quantity types each of a workout's totals and statistics is derived from. Apple
/// documents a workout's statistics as calculated "based on the HKQuantitySample objects
/// associated with the workout", and its totals are the sums of those statistics: each is
/// information about samples of its quantity type, so a reader may see it only where it may
/// read that type (DESIGN.md §7.3). The store applies this (`WorkoutValueScopes`); the SDK's
/// builder reads its distance types from this table too (`WorkoutDistanceTypes` in HKWorkoutBuilder).
public enum WorkoutValueTypes {
    /// The quantity types `total` of a workout of `activityType` (`HKWorkoutActivityType` raw
    /// value) is derived from: every one must be readable for the total to be seen. Empty for
    /// the duration, which is the workout's own (its dates and events).
    public static func types(of total: WorkoutTotal, activityType: UInt) -> [String] {
        switch total {
        case .duration: []
        case .energyBurned: [HKQuantityTypeIdentifier.activeEnergyBurned.rawValue]
        case .distance: distanceTypes(activityType: activityType)
        case .swimmingStrokeCount: [HKQuantityTypeIdentifier.swimmingStrokeCount.rawValue]
        case .flightsClimbed: [HKQuantityTypeIdentifier.flightsClimbed.rawValue]
        }
    }

    /// The store keeps one total distance in meters without its type, so the type is the one
    /// the activity's distance is measured in, as HealthKit's builder picks it; snow sports may
    /// sum either of two types, so both must be readable.
    public static func distanceTypes(activityType: UInt) -> [String] {
        distanceGroups.first { $0.activities.contains(activityType) }?.types ?? otherDistanceTypes
    }

    /// Activities whose distance is not walking and running distance, with their types: for
    /// the store's SQL, which tests a row's activity type against each group.
    public static let distanceGroups: [(activities: [UInt], types: [String])] = [
        ([HKWorkoutActivityType.cycling, .handCycling].map(\.rawValue), [HKQuantityTypeIdentifier.distanceCycling.rawValue]),
        ([HKWorkoutActivityType.swimming.rawValue], [HKQuantityTypeIdentifier.distanceSwimming.rawValue]),
        ([HKWorkoutActivityType.wheelchairRunPace, .wheelchairWalkPace].map(\.rawValue),
         [HKQuantityTypeIdentifier.distanceWheelchair.rawValue]),
        ([HKWorkoutActivityType.downhillSkiing, .snowboarding, .crossCountrySkiing].map(\.rawValue),
         [HKQuantityTypeIdentifier.distanceDownhillSnowSports.rawValue, HKQuantityTypeIdentifier.distanceWalkingRunning.rawValue]),
    ]

    /// The distance type of every other activity.
    public static let otherDistanceTypes = [HKQuantityTypeIdentifier.distanceWalkingRunning.rawValue]
}
