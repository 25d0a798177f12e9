import HealthStore

/// What a long-running collection's last result was computed from: the app's read scope, the
/// type's source order (as `ChangeNotifier.sourceOrderVersion`), the versions of the grant records
/// the reading consults (`ChangeNotifier.grantRecordVersion`) and the store's change number, read
/// before the computation. While the consulted rules, the order and the grant records stay the
/// same and no sample the scope admits changed after that number, recomputing would give the same
/// result.
struct CollectionBasis: Equatable, Sendable {
    let scope: Visibility
    let sourceOrderVersion: UInt64
    let grantVersion: UInt64
    /// Every change up to this number is reflected in the result (later ones may be too).
    var change: Int64

    init(scope: Visibility, sourceOrderVersion: UInt64, grantVersion: UInt64 = 0, change: Int64) {
        self.scope = scope
        self.sourceOrderVersion = sourceOrderVersion
        self.grantVersion = grantVersion
        self.change = change
    }

    /// Whether a result on this basis still holds for `scope` and `sourceOrderVersion` as long
    /// as no visible sample changed, for a reading that consults `rules` of its visibility.
    ///
    /// Only the consulted rules count (`Visibility.consultedRules`): the workouts' scope only when
    /// the predicate names a workout, the correlations' only for `.noCorrelation`. A workout
    /// decision recomputed a collection of steps when it allowed and not when it denied, though
    /// the collection never reads workouts: the decision in the reader's timing (privacy review,
    /// session 19, finding 2). And a grant record of a consulted type that changed recomputes
    /// whatever the decision (`grantVersion`): allowed or denied, one computation.
    ///
    /// A window's start moving with the clock alone changes no rule: the result is recomputed,
    /// with the window as it is then, at the next change the app can see or grant change — never
    /// because a change it cannot see woke the watch (privacy review, session 16).
    func carriesOver(to scope: Visibility, consulting rules: ConsultedRules, sourceOrderVersion: UInt64,
                     grantVersion: UInt64 = 0) -> Bool {
        sameRules(as: scope, consulting: rules) && sourceOrderVersion == self.sourceOrderVersion && grantVersion == self.grantVersion
    }

    /// Whether `scope` has the rules this basis was computed under, where the reading consults them.
    func sameRules(as scope: Visibility, consulting rules: ConsultedRules) -> Bool {
        scope.consultedRules(rules) == self.scope.consultedRules(rules)
    }
}
