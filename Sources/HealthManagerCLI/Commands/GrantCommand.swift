import ArgumentParser
import Foundation
import HealthWire

/// `healthctl grant APP read|share TYPE… [--for DURATION] [--window DURATION]`.
struct GrantCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant",
        abstract: "Allow an app to read or write types of health data.",
        discussion: """
            Takes effect at once, also for queries the app is already running.

            A grant may be temporary: with --for it expires after that long and then counts as \
            denied, as if you had revoked it. With --window (read only) the app sees only data \
            from that far back, measured at each query, plus whatever it saved itself. Clinical \
            documents take no window: you allow them one by one (healthctl object-requests).

            Examples:
              healthctl grant com.example.sleep read heartRate sleepAnalysis
              healthctl grant com.example.coach read heartRate --window 30d --for 8h
            """)

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var target: GrantTargetArguments
    @OptionGroup var temporary: TemporaryGrantOptions

    func validate() throws {
        try temporary.validate(access: target.access.kind)
    }

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let grants = target.grants(.authorized, limits: temporary.limits(at: Date()))
        try await client.setGrants(AppGrants(appID: target.appID, decisions: grants))
        CommandIO.current.output.writeLine(GrantChangeSummary.text(verb: "Allowed", grants: grants, appID: target.appID)
                                           + GrantChangeSummary.limitsText(temporary))
    }
}
