/// One app's decision for one type and one kind of access.
public struct GrantDecision: Hashable, Sendable {
    public var typeIdentifier: String
    public var access: AccessKind
    public var decision: AuthorizationDecision

    public init(_ typeIdentifier: String, _ access: AccessKind, _ decision: AuthorizationDecision) {
        self.typeIdentifier = typeIdentifier
        self.access = access
        self.decision = decision
    }
}
