import ArgumentParser
import HealthModel

/// `healthctl apps list`.
struct AppsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the installed apps.",
        discussion: """
            READS and WRITES say whether the manifest explains why the app reads or writes \
            health data; an app can only ask for the kinds of access it explains.

            Example:
              healthctl apps list
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let apps = try await client.listApps()
        let io = CommandIO.current
        if apps.isEmpty {
            io.output.writeLine("No apps are installed. Install one with `healthctl apps install MANIFEST.json`.")
            return
        }
        io.output.write(Self.table(apps).rendered(emphasize: io.emphasized))
    }

    static func table(_ apps: [AppManifest]) -> TextTable {
        var table = TextTable([.init("ID"), .init("NAME"), .init("VERSION"), .init("READS"), .init("WRITES"),
                               .init("EXECUTABLE"), .init("ENTITLEMENTS")])
        for app in apps.sorted(by: { $0.id < $1.id }) {
            table.append([app.id, app.displayName, app.version,
                          app.readUsageDescription == nil ? "no" : "yes",
                          app.shareUsageDescription == nil ? "no" : "yes",
                          app.executable, app.entitlements.joined(separator: ",")])
        }
        return table
    }
}
