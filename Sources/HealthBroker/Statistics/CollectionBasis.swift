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
    /// as no visible sample changed. A window's start moving with the clock alone changes no rule
    /// (`Visibility.clockFree`): the result is recomputed, with the window as it is then, at the
    /// next change the app can see or grant change — never because a change it cannot see woke
    /// the watch. Recomputing a windowed collection at a hidden change sent an update exactly then
    /// (the window had moved meanwhile), a real-time detector of other apps' hidden saves (privacy
    /// review, session 16). A changed workout scope is a changed basis.
    func carriesOver(to scope: Visibility, sourceOrderVersion: UInt64) -> Bool {
        scope.clockFree == self.scope.clockFree && sourceOrderVersion == self.sourceOrderVersion
    }
}
