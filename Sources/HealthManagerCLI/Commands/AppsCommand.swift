import ArgumentParser

/// `healthctl apps …`: the apps healthd knows, installed from their manifests.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "Install apps from their manifests, list them, their background deliveries and their storage, remove them.",
        discussion: """
            Examples:
              healthctl apps install sleep-tracker.json
              healthctl apps list
              healthctl apps background org.example.sleep
              healthctl apps storage
              healthctl apps allow-direct org.example.sleep
              healthctl apps remove org.example.sleep
            """,
        subcommands: [AppsInstallCommand.self, AppsListCommand.self, AppsBackgroundCommand.self,
                      AppsAllowDirectCommand.self, AppsDenyDirectCommand.self,
                      AppsAllowNetworkCommand.self, AppsDenyNetworkCommand.self, AppsStorageCommand.self, AppsRemoveCommand.self])
}
