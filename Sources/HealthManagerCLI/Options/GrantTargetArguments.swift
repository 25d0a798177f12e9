import ArgumentParser
import HealthModel

/// `APP read|share TYPE…`, shared by `grant` and `revoke`.
struct GrantTargetArguments: ParsableArguments {
    /// The command-line spelling of `AccessKind`. "share" is HealthKit's word for write access.
    enum Access: String, ExpressibleByArgument, CaseIterable {
        case read, share
        var kind: AccessKind { self == .read ? .read : .share }
    }

    @Argument(help: ArgumentHelp("The app's id, as in `healthctl apps list`.", valueName: "app"))
    var appID: String

    @Argument(help: ArgumentHelp("Which permission: read, or share (write).", valueName: "read|share"))
    var access: Access

    @Argument(help: ArgumentHelp("The types: \(HealthTypeArgument.valueHelp).", valueName: "type"),
              completion: HealthTypeArgument.completion, transform: HealthTypeArgument.identifier)
    var types: [String] = []

    func validate() throws {
        if appID.isEmpty { throw ValidationError("the app id must not be empty") }
        if types.isEmpty { throw ValidationError("name at least one type, e.g. heartRate") }
    }

    func grants(_ decision: AuthorizationDecision, limits: GrantLimits = .none) -> [GrantDecision] {
        var seen: Set<String> = []
        return types.filter { seen.insert($0).inserted }.map { GrantDecision($0, access.kind, decision, limits: limits) }
    }
}
