public import HealthModel

/// Which parts of a `Visibility` a reading consults, so that what decides whether the reading
/// must happen again compares those and nothing else (privacy review, session 19, finding 2).
///
/// Every sample type's `Visibility` carries the workouts' scope and the correlations' scope, but a
/// reading consults them only when its predicate names a workout (`.workout`, `.workoutEffort`) or
/// asks for samples outside correlations (`.noCorrelation`); a workout's derived values only when
/// the type is the workout type. A long-running collection that recomputed whenever *any* part
/// changed did so when the user answered its app's workout prompt with "allow" (the workouts'
/// scope widened) and not with "deny" (it stayed the app's own): the decision showed in the
/// computation's cost and, for a windowed reader, in an update (DESIGN.md §7.2).
public struct ConsultedRules: Sendable, Equatable {
    public let workouts: Bool
    public let correlations: Bool
    public let workoutValues: Bool

    /// What a reading of `typeIdentifier` matching `predicate` (nil: all) consults besides the
    /// type's own scope.
    public init(predicate: SamplePredicate?, of typeIdentifier: String) {
        workouts = predicate.map { Self.names($0) { if case .workout = $0 { true } else if case .workoutEffort = $0 { true } else { false } } } ?? false
        correlations = predicate.map { Self.names($0) { $0 == .noCorrelation } } ?? false
        workoutValues = typeIdentifier == HKWorkoutTypeIdentifier
    }

    /// Whether `predicate` or one of its operands is a node `matches` selects.
    private static func names(_ predicate: SamplePredicate, _ matches: (SamplePredicate) -> Bool) -> Bool {
        switch predicate {
        case let .and(operands), let .or(operands): operands.contains { names($0, matches) }
        case let .not(operand): names(operand, matches)
        default: matches(predicate)
        }
    }

    /// The types whose grant records resolve the consulted parts: the type itself, the workout
    /// type when workouts are consulted, every type of a correlation that may hold the type when
    /// correlations are. (`GrantRecordVersions` in the broker counts their changes.)
    public func grantTypes(of typeIdentifier: String) -> [String] {
        var types = [typeIdentifier]
        if workouts { types.append(HKWorkoutTypeIdentifier) }
        // Every type a correlation holding the type may hold (the type itself included).
        if correlations { types += CorrelationRules.correlatedTypes(of: typeIdentifier).filter { $0 != typeIdentifier } }
        return types
    }
}

extension Visibility {
    /// The rules of this visibility that a reading consulting `rules` depends on, with every
    /// window's start taken away: two readings between which this is equal read the same rows
    /// of the same rules (a window's start moving with the clock alone changes no rule). A part
    /// not consulted is replaced by the queried type's own rule, a constant for the comparison.
    public func consultedRules(_ rules: ConsultedRules) -> Visibility {
        let free = clockFree
        var consulted = Visibility(scope: free.scope,
                                   workouts: rules.workouts ? free.workouts : free.scope,
                                   correlations: rules.correlations ? free.correlations : free.scope,
                                   workoutValues: rules.workoutValues ? free.workoutValues : .ownValues(for: free.scope))
        consulted.through = nil
        return consulted
    }

    /// This visibility, with each part whose rule is the same as `earlier`'s (`clockFree`) kept
    /// as it was, window start included; a part whose rule changed takes its new one. A stream
    /// that reads again because something it could see left the store, or because a grant of
    /// one type changed, must not also move the windows of the others: every row of another
    /// source that crossed a window's edge since the first reading would be missing from the rest
    /// of the answer, where the twin store sends it (privacy review, session 19, finding 2).
    public func keepingWindows(of earlier: Visibility) -> Visibility {
        func kept(_ now: ReadScope, _ then: ReadScope) -> ReadScope { now.clockFree == then.clockFree ? then : now }
        var merged = Visibility(scope: kept(scope, earlier.scope), workouts: kept(workouts, earlier.workouts),
                                correlations: kept(correlations, earlier.correlations),
                                workoutValues: workoutValues.clockFree == earlier.workoutValues.clockFree ? earlier.workoutValues : workoutValues)
        merged.through = through
        return merged
    }
}
