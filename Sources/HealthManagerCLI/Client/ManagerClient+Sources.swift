public import HealthModel
import HealthWire

/// The source-priority methods.
extension ManagerClient {
    /// The sources of `typeIdentifier` in its priority order, or (nil) every source of the store.
    public func listSources(typeIdentifier: String?) async throws(HealthCtlError) -> [SourceEntry] {
        let action = typeIdentifier.map { "list the sources of \(TypeDisplayName.words(of: $0))" } ?? "list the sources"
        let list: SourceEntryList = try await unary(.listSources, SourceListRequest(typeIdentifier: typeIdentifier ?? ""), action: action)
        return list.sources
    }

    /// Makes `appIDs` the priority order of `typeIdentifier`, highest first.
    public func setSourcePriority(typeIdentifier: String, appIDs: [String]) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.setSourcePriority, SourcePriorityChange(typeIdentifier: typeIdentifier, appIDs: appIDs),
                                              action: "set the source priority of \(TypeDisplayName.words(of: typeIdentifier))")
    }

    /// Forgets the user's order of `typeIdentifier`.
    public func resetSourcePriority(typeIdentifier: String) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.setSourcePriority, SourcePriorityChange.reset(typeIdentifier),
                                              action: "reset the source priority of \(TypeDisplayName.words(of: typeIdentifier))")
    }
}
