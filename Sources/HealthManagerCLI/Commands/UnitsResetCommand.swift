import ArgumentParser
import HealthModel
import HealthWire

/// `healthctl units reset TYPE`.
struct UnitsResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Forget the unit chosen for a type: apps go back to their locale's default.",
        discussion: """
            Example:
              healthctl units reset bodyMass
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The quantity type: \(HealthTypeArgument.valueHelp).", valueName: "type"),
              completion: HealthTypeArgument.completion, transform: HealthTypeArgument.identifier)
    var type: String

    func validate() throws {
        _ = try UnitsTypeCheck.quantityType(type)
    }

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        try await client.setUnitPreference(PreferredUnit(typeIdentifier: type, unit: ""))
        CommandIO.current.output.writeLine("\(TypeDisplayName.words(of: type)): apps asking for your preferred unit now get their locale's default.")
    }
}
