import HealthModel
public import HealthWire

/// A non-interactive answer to one prompt, as the `requests --id N` flags describe it.
public enum PromptDecisionPolicy: Equatable, Sendable {
    case allowAll
    case denyAll
    /// Exactly these types are authorized; every other type of the prompt is denied.
    case allowOnly(read: [String], share: [String])

    /// A decision for every type the prompt asks about. Naming a type the prompt does not ask
    /// for is an error rather than ignored: the user believes they granted something.
    public func answer(to prompt: AuthorizationPrompt) throws(HealthCtlError) -> PromptAnswer {
        let allowedRead: Set<String>, allowedShare: Set<String>
        switch self {
        case .allowAll:
            (allowedRead, allowedShare) = (Set(prompt.readTypes), Set(prompt.shareTypes))
        case .denyAll:
            (allowedRead, allowedShare) = ([], [])
        case let .allowOnly(read, share):
            for type in read where !prompt.readTypes.contains(type) {
                throw .typeNotRequested(typeIdentifier: type, access: .read, requestID: prompt.requestID, requested: prompt.readTypes)
            }
            for type in share where !prompt.shareTypes.contains(type) {
                throw .typeNotRequested(typeIdentifier: type, access: .share, requestID: prompt.requestID, requested: prompt.shareTypes)
            }
            (allowedRead, allowedShare) = (Set(read), Set(share))
        }
        let decisions =
            prompt.readTypes.map { GrantDecision($0, .read, allowedRead.contains($0) ? .authorized : .denied) }
            + prompt.shareTypes.map { GrantDecision($0, .share, allowedShare.contains($0) ? .authorized : .denied) }
        return PromptAnswer(requestID: prompt.requestID, decisions: decisions)
    }
}
