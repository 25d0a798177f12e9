import ArgumentParser

/// `healthctl apps allow-network APP-ID`: the user's half of an app's network access.
struct AppsAllowNetworkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allow-network",
        abstract: "Let an app whose manifest asks for it use the network.",
        discussion: """
            Apps run in a network namespace of their own with no interfaces. An app whose manifest says \
            "network": true and that you allow here shares your network instead (its next launch): it may \
            open internet sockets, and reach and be reached by local services, including abstract Unix \
            sockets it binds (see SECURITY.md). Both are needed; `healthctl apps list` shows NETWORK "on" \
            then. Undo with `healthctl apps deny-network`.

            Example:
              healthctl apps allow-network org.example.sync
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "The installed app's id (see `healthctl apps list`).")
    var appID: String

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        try await client.setNetworkAccess(appID: appID, allowed: true)
        CommandIO.current.output.writeLine("\(appID) may use the network from its next launch if its manifest asks for it.")
    }
}

/// `healthctl apps deny-network APP-ID`: back to no network (the default).
struct AppsDenyNetworkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deny-network",
        abstract: "Run an app without network access (the default).",
        discussion: """
            Withdraws `healthctl apps allow-network`: from its next launch the app runs in a network namespace \
            of its own with no interfaces. A running instance keeps the network it was started with until it exits.

            Example:
              healthctl apps deny-network org.example.sync
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "The installed app's id (see `healthctl apps list`).")
    var appID: String

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        try await client.setNetworkAccess(appID: appID, allowed: false)
        CommandIO.current.output.writeLine("\(appID) runs without network access from its next launch.")
    }
}
