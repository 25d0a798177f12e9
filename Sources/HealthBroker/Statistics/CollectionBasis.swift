import HealthStore

/// What a long-running collection's last result was computed from: the app's read scope, the
/// type's source order (as `ChangeNotifier.sourceOrderVersion`) and the store's change number,
/// read before the computation. While the scope and the order stay the same and no sample the
/// scope admits changed after that number, recomputing would give the same result.
struct CollectionBasis: Equatable, Sendable {
    let scope: Visibility
    let sourceOrderVersion: UInt64
    /// Every change up to this number is reflected in the result (later ones may be too).
    var change: Int64

    /// Whether a result on this basis still holds for `scope` and `sourceOrderVersion` as long
    /// as no visible sample changed. A window scope (of the type or of the workouts a predicate
    /// names) is never carried over: its `since` moves with the clock, so samples leave it
    /// without any change to the store. A changed workout scope is a changed basis.
    func carriesOver(to scope: Visibility, sourceOrderVersion: UInt64) -> Bool {
        if scope.movesWithClock { return false }
        return scope == self.scope && sourceOrderVersion == self.sourceOrderVersion
    }
}
