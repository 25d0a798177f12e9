import HealthModel

/// The confirmation `grant` and `revoke` print.
enum GrantChangeSummary {
    /// "Allowed com.example.sleep to read Heart Rate, Sleep Analysis."
    static func text(verb: String, grants: [GrantDecision], appID: String) -> String {
        let access = grants.first?.access == .share ? "write" : "read"
        let types = grants.map { TypeDisplayName.words(of: $0.typeIdentifier) }.joined(separator: ", ")
        return "\(verb) \(appID) to \(access) \(types)."
    }
}
