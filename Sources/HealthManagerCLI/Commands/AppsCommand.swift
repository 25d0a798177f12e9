import ArgumentParser

/// `healthctl apps …`: the apps healthd knows, installed from their manifests.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "Install apps from their manifests and list the installed apps.",
        discussion: """
            Examples:
              healthctl apps install sleep-tracker.json
              healthctl apps list
            """,
        subcommands: [AppsInstallCommand.self, AppsListCommand.self])
}
