import ArgumentParser
import HealthModel

/// `healthctl grants APP`: what one app may read and write.
struct GrantsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grants",
        abstract: "Show what an app may read and write.",
        discussion: """
            "not set" means the app has not asked and you have not decided.

            Example:
              healthctl grants com.example.sleep
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The app's id, as in `healthctl apps list`.", valueName: "app"))
    var appID: String

    func validate() throws {
        if appID.isEmpty { throw ValidationError("the app id must not be empty") }
    }

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let grants = try await client.listGrants(appID: appID)
        let io = CommandIO.current
        if grants.allSatisfy({ $0.decision == .notDetermined }) {
            io.output.writeLine("\(appID) has no grants yet.")
            return
        }
        io.output.write(Self.table(grants).rendered(emphasize: io.emphasized))
    }

    /// One row per type, sorted by its readable name.
    static func table(_ grants: [GrantDecision]) -> TextTable {
        var byType: [String: [AccessKind: AuthorizationDecision]] = [:]
        for grant in grants { byType[grant.typeIdentifier, default: [:]][grant.access] = grant.decision }
        var table = TextTable([.init("TYPE"), .init("READ"), .init("SHARE")])
        let rows = byType.map { (name: TypeDisplayName.words(of: $0.key), decisions: $0.value) }
        for row in rows.sorted(by: { $0.name < $1.name }) {
            table.append([row.name, word(row.decisions[.read]), word(row.decisions[.share])])
        }
        return table
    }

    static func word(_ decision: AuthorizationDecision?) -> String {
        switch decision ?? .notDetermined {
        case .authorized: "allowed"
        case .denied: "denied"
        case .notDetermined: "not set"
        }
    }
}
