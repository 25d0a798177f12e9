public import Foundation

extension GrantDecision {
    /// The decision as it stands at `now`: an authorized grant whose expiry has passed is denied,
    /// exactly as if the user had revoked it then. The limits stay, so the manager can say when
    /// it expired.
    public func effective(at now: Date) -> GrantDecision {
        guard decision == .authorized, limits.isExpired(at: now) else { return self }
        var lapsed = self
        lapsed.decision = .denied
        return lapsed
    }
}
