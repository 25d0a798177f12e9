/// One app's decision for one type and one kind of access.
public struct GrantDecision: Hashable, Sendable {
    public var typeIdentifier: String
    public var access: AccessKind
    public var decision: AuthorizationDecision
    /// A temporary grant's window and expiry (`GrantLimits.none` for an ordinary grant).
    public var limits: GrantLimits

    public init(_ typeIdentifier: String, _ access: AccessKind, _ decision: AuthorizationDecision,
                limits: GrantLimits = .none) {
        self.typeIdentifier = typeIdentifier
        self.access = access
        self.decision = decision
        self.limits = limits
    }
}
