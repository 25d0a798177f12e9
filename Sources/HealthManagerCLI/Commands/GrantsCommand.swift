import ArgumentParser
import Foundation
import HealthModel

/// `healthctl grants APP`: what one app may read and write.
struct GrantsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grants",
        abstract: "Show what an app may read and write.",
        discussion: """
            "not set" means the app has not asked and you have not decided. A temporary grant \
            shows its window and when it expires; once expired it shows as denied.

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
        io.output.write(Self.table(grants, timeZone: io.timeZone).rendered(emphasize: io.emphasized))
    }

    /// One row per type, sorted by its readable name.
    static func table(_ grants: [GrantDecision], timeZone: TimeZone) -> TextTable {
        var byType: [String: [AccessKind: GrantDecision]] = [:]
        for grant in grants { byType[grant.typeIdentifier, default: [:]][grant.access] = grant }
        var table = TextTable([.init("TYPE"), .init("READ"), .init("SHARE")])
        let rows = byType.map { (name: TypeDisplayName.words(of: $0.key), grants: $0.value) }
        let describer = GrantDescriber(timeZone: timeZone)
        for row in rows.sorted(by: { $0.name < $1.name }) {
            table.append([row.name, describer.text(row.grants[.read]), describer.text(row.grants[.share])])
        }
        return table
    }
}
