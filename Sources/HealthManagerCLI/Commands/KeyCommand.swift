import ArgumentParser

/// `healthctl key …`: the store's data key.
struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Manage the data key that encrypts the health store.",
        discussion: """
            Example:
              healthctl key rotate
            """,
        subcommands: [KeyRotateCommand.self])
}
