import ArgumentParser
import HealthModel

/// `healthctl characteristics unset TYPE`.
struct CharacteristicsUnsetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unset",
        abstract: "Clear one characteristic: apps then read it as not set.",
        discussion: """
            Example:
              healthctl characteristics unset bloodType
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The characteristic: \(CharacteristicTypeArgument.valueHelp).", valueName: "type"),
              completion: CharacteristicTypeArgument.completion, transform: CharacteristicTypeArgument.identifier)
    var type: String

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        try await client.setCharacteristic(CharacteristicRecord(typeIdentifier: type, value: nil))
        CommandIO.current.output.writeLine("Cleared \(TypeDisplayName.words(of: type)).")
    }
}
