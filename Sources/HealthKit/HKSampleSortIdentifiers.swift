/// HealthKit's sort keys for `NSSortDescriptor(key:ascending:)` in sample queries.
public let HKSampleSortIdentifierStartDate = "startDate"
public let HKSampleSortIdentifierEndDate = "endDate"

/// HealthKit's workout sort keys (HKWorkout.h), for `NSSortDescriptor(key:ascending:)` in an
/// `HKSampleQuery` of `HKObjectType.workoutType()`; a query of any other type refuses them
/// with `errorInvalidArgument`. A workout without the total sorts first when ascending.
public let HKWorkoutSortIdentifierDuration = "duration"
public let HKWorkoutSortIdentifierTotalDistance = "totalDistance"
public let HKWorkoutSortIdentifierTotalEnergyBurned = "totalEnergyBurned"
public let HKWorkoutSortIdentifierTotalSwimmingStrokeCount = "totalSwimmingStrokeCount"
public let HKWorkoutSortIdentifierTotalFlightsClimbed = "totalFlightsClimbed"
