import ArgumentParser
import HealthWire

/// `healthctl passcode change`.
struct PasscodeChangeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change",
        abstract: "Replace the store's passcode (the current one, then the new one twice).",
        discussion: """
            Also re-encrypts the store under a new data key, so the old passcode opens \
            nothing written from now on, even with a copy of the old key file; takes about \
            as long as `healthctl key rotate`, and apps wait meanwhile.

            Example:
              healthctl passcode change
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        try await KeyChangeSession.run(connection) { client, credentials in
            let reader = PasscodeReader()
            credentials.passcode = try reader.read("the current passcode")
            credentials.newPasscode = try reader.readNew("the new passcode")
            KeyChangeProgress.reencrypting()
            try await client.changePasscode(credentials)
        }
        CommandIO.current.output.writeLine("Passcode changed. Start healthd with the new passcode from now on.")
    }
}
