import ArgumentParser

/// `healthctl log …`: the access log.
struct LogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show or verify the access log: who read, wrote or asked for which health data.",
        discussion: """
            Every authorization request, grant change, save and read is recorded with the app, \
            the types and the number of objects (never the values), in a hash-chained log \
            inside the encrypted store.

            Examples:
              healthctl log --limit 20
              healthctl log --app com.example.sleep --json
              healthctl log verify
            """,
        subcommands: [LogListCommand.self, LogVerifyCommand.self],
        defaultSubcommand: LogListCommand.self)
}
