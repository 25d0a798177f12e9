extension SampleRecord {
    /// The types whose share permission saving this record needs: its own type, or for a
    /// correlation — whose type cannot be authorized — the types of the samples it holds; for a
    /// workout, its own type and the quantity type of every statistic it or one of its
    /// activities carries.
    public var shareTypeIdentifiers: [String] {
        var types: [String] = []
        forEachShareTypeIdentifier { types.append($0) }
        return types
    }

    /// `shareTypeIdentifiers` one by one, building nothing: healthd collects a whole save's
    /// types with it (an array per record was a thousand allocations per batched save).
    ///
    /// The one rule for a record carrying values of other types: it needs share permission for
    /// each. A workout's statistics are values of their quantity types (readers see them only
    /// under that type's read scope, `WorkoutValueScopes`); in HealthKit they come from
    /// `HKWorkoutBuilder`, computed from the samples added to it, each of which needs share
    /// permission for its type to be saved. Without this, an app allowed to write workouts alone
    /// wrote any type's average, minimum, maximum and sum (red team, session 23, F4). The totals
    /// (energy, distance, strokes, flights) are the workout's own fields: HealthKit's workout
    /// initializers take them with the workout, and "adding samples to the workout does not
    /// change any of the workout's properties" (Apple, "Adding samples to a workout"); they need
    /// the workout's share permission only.
    public func forEachShareTypeIdentifier(_ body: (String) -> Void) {
        guard HKObjectType.type(forIdentifier: typeIdentifier) is HKCorrelationType else {
            body(typeIdentifier)
            guard case let .workout(workout) = value else { return }
            for statistic in workout.statistics { body(statistic.quantityType) }
            for activity in workout.activities {
                for statistic in activity.statistics { body(statistic.quantityType) }
            }
            return
        }
        guard case let .correlation(objects) = value else { return }
        for object in objects { body(object.typeIdentifier) }
    }

    /// Whether the record's share types depend on more than its type: a correlation's samples,
    /// a workout's statistics. A save's run of records of one type is collected once only
    /// when this is false.
    public var carriesValuesOfOtherTypes: Bool {
        switch value {
        case .correlation: true
        case let .workout(workout): !workout.statistics.isEmpty || workout.activities.contains { !$0.statistics.isEmpty }
        default: false
        }
    }

    /// The record and the samples of a correlation, depth first: the order in which the broker
    /// answers a save with UUIDs (`SavedUUIDs`).
    public var savedObjects: [SampleRecord] {
        guard case let .correlation(objects) = value else { return [self] }
        return [self] + objects
    }
}
