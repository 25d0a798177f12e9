import ArgumentParser

/// `healthctl sources …`: the apps your data comes from, and which one statistics trust first.
struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "List the apps your data comes from and set their priority per type.",
        discussion: """
            When samples from several apps overlap in time (a watch and a phone both counting \
            steps), statistics such as daily step totals count each moment once, from the app \
            highest in the type's priority order. Apps you have not placed follow the ones you \
            have, by app id (alphabetical): never by when they first saved, which would let \
            one app's data that another may not read decide what that app is shown.

            Examples:
              healthctl sources list stepCount
              healthctl sources priority stepCount com.example.watch com.example.phone
              healthctl sources priority stepCount --reset
            """,
        subcommands: [SourcesListCommand.self, SourcesPriorityCommand.self])
}
