import ArgumentParser
import HealthWire

/// `healthctl revoke APP read|share TYPE…`: records a denial (the app is not asked again).
struct RevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Deny an app reading or writing types of health data.",
        discussion: """
            The types become denied, not "not determined": the app will not prompt for them \
            again. Takes effect at once, also for queries the app is already running.

            Example:
              healthctl revoke com.example.sleep share stepCount
            """)

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var target: GrantTargetArguments

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let grants = target.grants(.denied)
        try await client.setGrants(AppGrants(appID: target.appID, decisions: grants))
        CommandIO.current.output.writeLine(GrantChangeSummary.text(verb: "Denied", grants: grants, appID: target.appID))
    }
}
