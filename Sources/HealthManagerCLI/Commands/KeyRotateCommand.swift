import ArgumentParser
import HealthWire

/// `healthctl key rotate`.
struct KeyRotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Re-encrypt the whole store under a new random data key.",
        discussion: """
            healthd writes a copy of every page under the new key and swaps it in; a crash \
            midway leaves the store readable under the old or the new key. Apps saving or \
            reading meanwhile wait until it is done; nothing saved is lost. When a passcode \
            protects the store you are asked for it (from the terminal without echo, else \
            the first line of standard input).

            Example:
              healthctl key rotate
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        try await KeyChangeSession.run(connection) { client, credentials in
            if try await client.keyStatus().passcodeSet {
                credentials.passcode = try PasscodeReader().read("the store's passcode")
            }
            KeyChangeProgress.reencrypting()
            try await client.rotateKey(credentials)
        }
        CommandIO.current.output.writeLine("Rotated the data key: the store is now encrypted under a new key.")
    }
}
