import ArgumentParser

/// `healthctl passcode …`: passcode protection of the store's data key.
struct PasscodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passcode",
        abstract: "Protect the health store with a passcode, change it, or remove it.",
        discussion: """
            With a passcode set, the store opens only with it: healthd must be started with \
            --passcode-file PATH or --passcode-stdin. Passcodes are read from the terminal \
            without echo, or one per line from standard input when it is not a terminal.

            Examples:
              healthctl passcode set
              healthctl passcode change
              healthctl passcode remove
            """,
        subcommands: [PasscodeSetCommand.self, PasscodeChangeCommand.self, PasscodeRemoveCommand.self])
}
