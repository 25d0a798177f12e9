import ArgumentParser

/// `healthctl log [list]`: the newest entries of the access log, oldest first.
struct LogListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the newest access-log entries, oldest first.",
        discussion: """
            --app keeps the entries about one app: its own requests, saves and reads, and the \
            grant changes you made for it. --json prints one JSON object per line, times in UTC.

            Example:
              healthctl log --app com.example.sleep --limit 50
            """)

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .customLong("app"), help: ArgumentHelp("Only entries about this app.", valueName: "id"))
    var appID: String?

    @Option(help: "Show at most this many of the newest entries.")
    var limit = 50

    @Flag(help: "Print one JSON object per line instead of a table.")
    var json = false

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
        if appID?.isEmpty == true { throw ValidationError("--app must not be empty") }
    }

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let entries = try await client.accessLog(appID: appID, limit: limit)
        let io = CommandIO.current
        let formatter = AccessLogFormatter(timeZone: io.timeZone)
        if json {
            for entry in entries { io.output.writeLine(formatter.jsonLine(entry)) }
            return
        }
        guard !entries.isEmpty else {
            io.output.writeLine(appID.map { "The access log has no entries about \($0)." } ?? "The access log is empty.")
            return
        }
        var table = TextTable(AccessLogFormatter.tableColumns)
        for entry in entries { table.append(formatter.tableRow(entry)) }
        io.output.write(table.rendered(emphasize: io.emphasized))
    }
}
