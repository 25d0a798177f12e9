import ArgumentParser

/// `healthctl characteristics …`: the user's date of birth, biological sex, blood type, skin
/// type, wheelchair use and move mode.
struct CharacteristicsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "characteristics",
        abstract: "Show or set your characteristics (date of birth, biological sex, blood type, …).",
        discussion: """
            Apps can read a characteristic only when you allowed them to read its type \
            (`healthctl grant APP read dateOfBirth`); to any other app it looks unset. Apps \
            can never change them.

            Examples:
              healthctl characteristics show
              healthctl characteristics set dateOfBirth 1984-03-02
              healthctl characteristics set bloodType A+
              healthctl characteristics unset wheelchairUse
            """,
        subcommands: [CharacteristicsShowCommand.self, CharacteristicsSetCommand.self, CharacteristicsUnsetCommand.self],
        defaultSubcommand: CharacteristicsShowCommand.self)
}
