import ArgumentParser
import HealthWire

/// `healthctl grant APP read|share TYPE…`.
struct GrantCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant",
        abstract: "Allow an app to read or write types of health data.",
        discussion: """
            Takes effect at once, also for queries the app is already running.

            Example:
              healthctl grant com.example.sleep read heartRate sleepAnalysis
            """)

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var target: GrantTargetArguments

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let grants = target.grants(.authorized)
        try await client.setGrants(AppGrants(appID: target.appID, decisions: grants))
        CommandIO.current.output.writeLine(GrantChangeSummary.text(verb: "Allowed", grants: grants, appID: target.appID))
    }
}
