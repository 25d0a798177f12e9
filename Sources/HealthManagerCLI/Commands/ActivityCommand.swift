import ArgumentParser

/// `healthctl activity …`: daily activity goals and summaries (the move, exercise and stand rings).
struct ActivityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "Show your daily activity summaries, or show and set your activity goals.",
        discussion: """
            Summaries are computed from your samples of active energy, exercise time, stand \
            hours and move time (overlapping apps counted once, by `healthctl sources \
            priority`). Apps see them only with read permission for activity summaries; \
            without it, an app sees summaries of its own samples and no goals.

            Examples:
              healthctl activity summary --days 7
              healthctl activity goals set --move 600kcal --exercise 30min --stand 12h
              healthctl activity goals show
            """,
        subcommands: [ActivitySummaryCommand.self, ActivityGoalsCommand.self],
        defaultSubcommand: ActivitySummaryCommand.self)
}
