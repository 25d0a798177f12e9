import ArgumentParser

/// `healthctl apps allow-direct APP-ID`: the user's opt-in to the weaker, credential-bound mode.
struct AppsAllowDirectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allow-direct",
        abstract: "Let an app connect to healthd without health-sandbox (the weaker mode).",
        discussion: """
            By default healthd serves an app only over the connection health-sandbox obtained for it when it \
            launched the app (confined, its identity bound at launch). With this, the app may also connect to \
            healthd's app socket by itself, unconfined, and healthd recognises it by the path of the executable \
            the kernel reports for it. That is weaker: any program of yours that can start the app's executable \
            with loader variables (LD_PRELOAD, LD_LIBRARY_PATH, …) runs its own code as the app and gets the app's \
            access. Allow it only for an app you run yourself, outside any sandbox. Reinstalling the app with a \
            different executable suspends it (it applies to the executable installed when it was given). Undo with `healthctl apps deny-direct`.

            Example:
              healthctl apps allow-direct org.example.sleep
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "The installed app's id (see `healthctl apps list`).")
    var appID: String

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        try await client.setDirectConnection(appID: appID, allowed: true)
        CommandIO.current.output.writeLine("\(appID) may now connect to healthd directly (without health-sandbox).")
    }
}

/// `healthctl apps deny-direct APP-ID`: back to launch-bound connections only.
struct AppsDenyDirectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deny-direct",
        abstract: "Serve an app only when launched with health-sandbox (the default).",
        discussion: """
            Revokes `healthctl apps allow-direct`: the app's own connections to healthd's app socket are refused; \
            it is served only when started with `health-sandbox run APP-ID -- …`. Direct connections already open \
            are ended at once: the app's next call on them fails.

            Example:
              healthctl apps deny-direct org.example.sleep
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "The installed app's id (see `healthctl apps list`).")
    var appID: String

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        try await client.setDirectConnection(appID: appID, allowed: false)
        CommandIO.current.output.writeLine("\(appID) is served only when launched with health-sandbox.")
    }
}
