import ArgumentParser
import HealthWire

/// `healthctl passcode set`.
struct PasscodeSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Protect the store with a passcode (asked twice).",
        discussion: """
            From then on healthd needs the passcode to open the store when it starts \
            (healthd --passcode-file PATH or --passcode-stdin). Forgetting it loses the data.

            Also re-encrypts the store under a new data key, so key files copied before \
            (a backup, a snapshot) open nothing written from now on; takes about as long \
            as `healthctl key rotate`, and apps wait meanwhile. Data written before may \
            remain on the disk's free blocks under the old key until overwritten.

            Examples:
              healthctl passcode set
              printf '%s\\n%s\\n' "$PASS" "$PASS" | healthctl passcode set
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        try await KeyChangeSession.run(connection) { client, credentials in
            credentials.newPasscode = try PasscodeReader().readNew("the new passcode")
            KeyChangeProgress.reencrypting()
            try await client.setPasscode(credentials)
        }
        CommandIO.current.output.writeLine(
            "Passcode set. Start healthd with --passcode-file PATH or --passcode-stdin from now on.")
    }
}
