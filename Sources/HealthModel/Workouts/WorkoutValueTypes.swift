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

    /// The quantity types `total` of `workout` is derived from: those of its activity type and,
    /// for the distance, those of every activity it holds too — a multisport workout's distance
    /// is the sum of its legs' (a triathlon's: swimming, cycling and walking/running distance),
    /// whatever activity type the workout itself carries. The store's SQL applies the same rule
    /// (`WorkoutValueScopes.visibleSQL`).
    public static func types(of total: WorkoutTotal, workout: WorkoutValue) -> [String] {
        var types = types(of: total, activityType: workout.activityType)
        guard total == .distance else { return types }
        for activity in workout.activities {
            for type in distanceTypes(activityType: activity.activityType) where !types.contains(type) { types.append(type) }
        }
        return types
    }

    /// The store keeps one total distance in meters without its type, so the type is the one
    /// the activity's distance is measured in, as HealthKit's builder picks it (the first: the
    /// builder sums the first that has samples); where an activity's distance was recorded as
    /// another type before (snow sports, and cross-country skiing before iOS 18's own type),
    /// every one of them must be readable.
    public static func distanceTypes(activityType: UInt) -> [String] {
        distanceGroups.first { $0.activities.contains(activityType) }?.types ?? otherDistanceTypes
    }

    /// Activities whose distance is not walking and running distance, with their types: for
    /// the store's SQL, which tests a row's activity type against each group. Apple documents
    /// each type by the workouts it is recorded in ("During outdoor rowing workouts, the system
    /// automatically collects distance samples": developer.apple.com/documentation/healthkit/
    /// hkquantitytypeidentifier/distancerowing, and likewise for every distance type); every
    /// `HKQuantityTypeIdentifierDistance…` type must appear here or in `otherDistanceTypes`
    /// (`WorkoutValueTypesTests`), or a workout of its activity would show a distance derived
    /// from it to readers who may not read it.
    public static let distanceGroups: [(activities: [UInt], types: [String])] = [
        ([HKWorkoutActivityType.cycling, .handCycling].map(\.rawValue), [HKQuantityTypeIdentifier.distanceCycling.rawValue]),
        ([HKWorkoutActivityType.swimming.rawValue], [HKQuantityTypeIdentifier.distanceSwimming.rawValue]),
        ([HKWorkoutActivityType.wheelchairRunPace, .wheelchairWalkPace].map(\.rawValue),
         [HKQuantityTypeIdentifier.distanceWheelchair.rawValue]),
        ([HKWorkoutActivityType.downhillSkiing, .snowboarding].map(\.rawValue),
         [HKQuantityTypeIdentifier.distanceDownhillSnowSports.rawValue, HKQuantityTypeIdentifier.distanceWalkingRunning.rawValue]),
        // iOS 18's distance types.
        ([HKWorkoutActivityType.crossCountrySkiing.rawValue],
         [HKQuantityTypeIdentifier.distanceCrossCountrySkiing.rawValue, HKQuantityTypeIdentifier.distanceDownhillSnowSports.rawValue,
          HKQuantityTypeIdentifier.distanceWalkingRunning.rawValue]),
        ([HKWorkoutActivityType.rowing.rawValue], [HKQuantityTypeIdentifier.distanceRowing.rawValue]),
        ([HKWorkoutActivityType.paddleSports.rawValue], [HKQuantityTypeIdentifier.distancePaddleSports.rawValue]),
        ([HKWorkoutActivityType.skatingSports.rawValue], [HKQuantityTypeIdentifier.distanceSkatingSports.rawValue]),
    ]

    /// The distance type of every other activity.
    public static let otherDistanceTypes = [HKQuantityTypeIdentifier.distanceWalkingRunning.rawValue]
}
