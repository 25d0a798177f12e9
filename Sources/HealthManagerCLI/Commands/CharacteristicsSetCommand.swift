import ArgumentParser
import HealthModel

/// `healthctl characteristics set TYPE VALUE`.
struct CharacteristicsSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set one characteristic.",
        discussion: """
            Values:
              dateOfBirth          YYYY-MM-DD (e.g. 1984-03-02), not after today
              biologicalSex        female, male, other
              bloodType            A+, A-, B+, B-, AB+, AB-, O+, O-
              fitzpatrickSkinType  I, II, III, IV, V, VI
              wheelchairUse        yes, no
              activityMoveMode     active-energy, move-time

            Example:
              healthctl characteristics set biologicalSex female
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The characteristic: \(CharacteristicTypeArgument.valueHelp).", valueName: "type"),
              completion: CharacteristicTypeArgument.completion, transform: CharacteristicTypeArgument.identifier)
    var type: String

    @Argument(help: ArgumentHelp("Its value (see the list above).", valueName: "value"))
    var value: String

    func validate() throws {
        do {
            _ = try CharacteristicSpelling.parse(value, for: type)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let record = CharacteristicRecord(typeIdentifier: type, value: try CharacteristicSpelling.parse(value, for: type))
        let client = try connection.connect()
        defer { client.close() }
        try await client.setCharacteristic(record)
        CommandIO.current.output.writeLine(
            "Set \(TypeDisplayName.words(of: type)) to \(CharacteristicSpelling.display(record.value, of: type)).")
    }
}
