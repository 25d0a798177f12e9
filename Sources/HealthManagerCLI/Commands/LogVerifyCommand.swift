import ArgumentParser

/// `healthctl log verify`: walks the access log's hash chain.
struct LogVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that no access-log entry was edited or deleted.",
        discussion: """
            Exits 0 and prints "intact: N entries" when the chain holds; otherwise names the \
            first damaged entry and exits 65. The check finds changes made without the chain \
            being recomputed; whoever holds the store's data key could rewrite it whole.

            Example:
              healthctl log verify
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        switch try await client.verifyAccessLog() {
        case let .intact(entries):
            CommandIO.current.output.writeLine("intact: \(entries) entries")
        case let .damaged(damage):
            throw HealthCtlError.accessLogDamaged(damage)
        }
    }
}
