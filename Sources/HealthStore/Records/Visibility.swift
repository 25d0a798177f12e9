public import Foundation

/// Everything a read needs to know about what its reader may see: the scope of the type it
/// queries, and the scope of every object type its predicate can name. `SampleSQL` cannot
/// compile a predicate without one (`SampleSQL.condition(_:of:within:_:)`), and every repository read
/// that takes a predicate takes one, so a query kind — present or future — cannot confine its
/// rows and forget to confine the objects its predicate names. (Reads without a predicate —
/// characteristics, route locations — take the one `ReadScope` they need.)
///
/// Of the predicates, two name an object other than the row being matched: `.workout`
/// (`predicateForObjects(from: workout)`) matches samples associated with *another* object, so
/// without the workout's own scope a reader allowed steps but not workouts could learn which
/// steps another app associated with a workout it cannot see; `.noCorrelation`
/// (`predicateForObjectsWithNoCorrelation()`) asks whether a correlation holds the row, so
/// without the correlations' scope a reader allowed systolic but not diastolic pressure could
/// learn which systolic samples another app saved with a diastolic one. Every other predicate
/// tests the matched row itself (its UUID, source, device, dates, values, metadata, a workout's
/// activity type), and that row is already confined by `scope`; correlation member predicates
/// test members of correlations already confined by every member type's scope.
///
/// The broker's authorization engine resolves one per read, and long-running queries resolve it
/// again at every delivery, so revoking or expiring the *workout* read grant applies at once.
public struct Visibility: Sendable, Equatable {
    /// The part of the queried type's data the reader sees.
    public var scope: ReadScope
    /// The part of HKWorkoutType's data the reader sees: the workouts a `.workout` predicate may
    /// name. A workout outside it is treated as if it did not exist.
    public var workouts: ReadScope
    /// The part of the correlations that may hold the queried type's samples the reader sees:
    /// the narrowest of the scopes of every type such a correlation may hold, the rule
    /// correlation queries apply (`queryCorrelations`). A correlation outside it is treated as
    /// if it did not exist. Required, with no default: the queried type's own scope is wider
    /// and would reveal hidden correlations.
    public var correlations: ReadScope
    /// The reader's scope for each quantity type a workout's totals and statistics derive
    /// from: which of them it sees on the workouts `scope` admits, and may match or sort by.
    /// Resolved by the authorization engine for workout reads; by default the narrowest
    /// (`WorkoutValueScopes.ownValues(for: scope)`: the reader's own workouts' values only).
    public var workoutValues: WorkoutValueScopes
    /// The answer's first reading's change number, for a reading after it (`ReadSnapshot`); nil
    /// for a first reading, which sees one consistent state of the store anyway. The repositories
    /// set it where they bound the queried rows (`bounded(through:)`), and `SampleSQL.compile`
    /// bounds by it every other row a predicate consults — the workout a `.workout` or
    /// `.workoutEffort` predicate names, its associations and effort relations, the correlations
    /// `.noCorrelation` looks for — so a second reading of an answer matches the rows the first
    /// matched, less what left the store, whatever the reader associated, related or saved since
    /// (SECURITY.md, "A second reading is bounded by the first").
    public var through: Int64?

    public init(scope: ReadScope, workouts: ReadScope, correlations: ReadScope, workoutValues: WorkoutValueScopes? = nil) {
        self.scope = scope
        self.workouts = workouts
        self.correlations = correlations
        self.workoutValues = workoutValues ?? .ownValues(for: scope)
    }

    // The same scope for the queried type and for workouts: the user's own manager, and readers
    // whose grants for both agree. Spelled like `ReadScope`'s cases, so `scope: .allSources` reads
    // the same whichever of the two a function takes.

    /// Every source's data of every type (the user's own manager).
    public static let allSources = Visibility(scope: .allSources, workouts: .allSources, correlations: .allSources)

    /// Only what `appID` saved itself, of every type.
    public static func ownSamples(appID: String) -> Visibility {
        Visibility(scope: .ownSamples(appID: appID), workouts: .ownSamples(appID: appID), correlations: .ownSamples(appID: appID))
    }

    /// `appID`'s own data and every source's from `since` on, of every type.
    public static func recentWindow(appID: String, since: Date) -> Visibility {
        Visibility(scope: .recentWindow(appID: appID, since: since), workouts: .recentWindow(appID: appID, since: since),
                   correlations: .recentWindow(appID: appID, since: since),
                   workoutValues: WorkoutValueScopes(others: .recentWindow(appID: appID, since: since)))
    }

    /// Whether what this admits changes with the clock alone (a window's start moves with each
    /// query), so a result computed under it cannot be carried over without recomputing.
    public var movesWithClock: Bool {
        for scope in [scope, workouts, correlations] {
            if case .recentWindow = scope { return true }
        }
        return false
    }

    /// The same rules with every window's start taken away: equal for two readings of one
    /// reader's grants between which only the clock moved (a stream's `StreamVisibility`).
    public var clockFree: Visibility {
        var free = Visibility(scope: scope.clockFree, workouts: workouts.clockFree, correlations: correlations.clockFree,
                              workoutValues: workoutValues.clockFree)
        free.through = through
        return free
    }

    /// The same reader's visibility with `scope` for the queried rows.
    public func with(scope: ReadScope) -> Visibility {
        var same = Visibility(scope: scope, workouts: workouts, correlations: correlations, workoutValues: workoutValues)
        same.through = through
        return same
    }

    /// The same visibility for a reading bounded by change number `through` (nil: not bounded).
    public func bounded(through: Int64?) -> Visibility {
        var bounded = self
        bounded.through = through
        return bounded
    }
}

extension ReadScope {
    /// The same rule with a window's start taken away (`Visibility.clockFree`).
    public var clockFree: ReadScope {
        guard case let .recentWindow(appID, _) = self else { return self }
        return .recentWindow(appID: appID, since: .distantPast)
    }
}
