import ArgumentParser

/// `healthctl units …`: the unit apps show each quantity type in (`preferredUnits(for:)`).
struct UnitsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "units",
        abstract: "Choose the unit apps show a type of data in.",
        discussion: """
            Without a choice, apps get their locale's default: metric (kg, cm, km, degC, \
            mmol/L glucose), US (lb, in, mi, degF, mg/dL) or UK (st, in, mi, degC).

            Examples:
              healthctl units set bodyMass lb
              healthctl units show
              healthctl units reset bodyMass
            """,
        subcommands: [UnitsShowCommand.self, UnitsSetCommand.self, UnitsResetCommand.self],
        defaultSubcommand: UnitsShowCommand.self)
}
