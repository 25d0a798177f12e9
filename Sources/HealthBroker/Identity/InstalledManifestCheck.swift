import HealthWire
import HealthModel

/// An installed manifest is checked again where it becomes an app's identity, not only at
/// install: one installed before a rule existed (the terminal-control rule of
/// `AppManifest.problems`, for one) is kept in the store as it was, and must not serve as an
/// app — its display name and usage descriptions would reach consent prompts — until the user
/// installs it again. `ConnectionRegistry.serve`, through which every app connection is served
/// (launch-bound for health-sandbox, or direct), asks here; health-sandbox never reads a
/// manifest itself, and healthctl's `apps list` applies the same `problems` to what it lists.
enum InstalledManifestCheck {
    /// The refusal for a manifest that no longer passes, naming each field and the fix; nil
    /// when it passes every check an install makes today.
    static func refusal(for manifest: AppManifest) -> RPCStatus? {
        let problems = manifest.problems
        guard !problems.isEmpty else { return nil }
        return RPCStatus(.failedPrecondition,
                         "the installed manifest of \(manifest.id.prefix(128)) does not pass today's manifest checks (it was installed "
                             + "before them): \(problems.joined(separator: "; ")). Fix the manifest file and install it again with "
                             + "`healthctl apps install MANIFEST.json`",
                         healthKitCode: .errorAuthorizationDenied)
    }
}
