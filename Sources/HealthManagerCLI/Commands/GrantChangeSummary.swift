import HealthModel

/// The confirmation `grant` and `revoke` print.
enum GrantChangeSummary {
    /// "Allowed com.example.sleep to read Heart Rate, Sleep Analysis."
    static func text(verb: String, grants: [GrantDecision], appID: String) -> String {
        let access = grants.first?.access == .share ? "write" : "read"
        let types = grants.map { TypeDisplayName.words(of: $0.typeIdentifier) }.joined(separator: ", ")
        return "\(verb) \(appID) to \(access) \(types)."
    }

    /// " Data from the last 30 days only. Expires in 8 hours." — empty for a permanent grant.
    static func limitsText(_ options: TemporaryGrantOptions) -> String {
        var text = ""
        if let window = options.window { text += " Data from the last \(window) only." }
        if let duration = options.duration { text += " Expires in \(duration)." }
        return text
    }
}
