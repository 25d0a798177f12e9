extension SampleQuerySpec {
    /// Refuses a sort key the queried type does not have: the `HKWorkoutSortIdentifier…` keys
    /// name `HKWorkout` properties, so they sort workout queries only. Apple's documentation
    /// does not say what HealthKit does with one on another type (the key names no property
    /// of the sample class); here it is `errorInvalidArgument` naming the key and the type.
    /// The SDK calls this before sending, healthd again on every query it is sent.
    public func checkSort() throws(HKError) {
        for descriptor in sort {
            guard case let .workout(total) = descriptor.key, typeIdentifier != HKWorkoutTypeIdentifier else { continue }
            throw HKError(.errorInvalidArgument,
                          "\(total.sortIdentifier) sorts workouts only (HKWorkoutType); "
                          + "a \(typeIdentifier.prefix(100)) query sorts by startDate or endDate")
        }
    }
}

extension WorkoutTotal {
    /// HealthKit's name for sorting by this total (`HKWorkoutSortIdentifier…`'s value).
    public var sortIdentifier: String {
        switch self {
        case .duration: "duration"
        case .energyBurned: "totalEnergyBurned"
        case .distance: "totalDistance"
        case .swimmingStrokeCount: "totalSwimmingStrokeCount"
        case .flightsClimbed: "totalFlightsClimbed"
        }
    }
}
