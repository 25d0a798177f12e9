import ArgumentParser
import HealthWire

/// `healthctl passcode remove`.
struct PasscodeRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove the passcode: the machine key alone opens the store again.",
        discussion: """
            Asks for the current passcode. Also re-encrypts the store under a new data key \
            (about as long as `healthctl key rotate`; apps wait meanwhile).

            Example:
              healthctl passcode remove
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        try await KeyChangeSession.run(connection) { client, credentials in
            credentials.passcode = try PasscodeReader().read("the current passcode")
            KeyChangeProgress.reencrypting()
            try await client.removePasscode(credentials)
        }
        CommandIO.current.output.writeLine("Passcode removed. healthd no longer needs it to start.")
    }
}
