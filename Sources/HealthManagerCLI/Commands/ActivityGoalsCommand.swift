import ArgumentParser

/// `healthctl activity goals …`.
struct ActivityGoalsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goals",
        abstract: "Show or set your activity goals.",
        subcommands: [ActivityGoalsShowCommand.self, ActivityGoalsSetCommand.self],
        defaultSubcommand: ActivityGoalsShowCommand.self)
}
