import ArgumentParser
import HealthModel

/// `healthctl apps list`.
struct AppsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the installed apps.",
        discussion: """
            READS and WRITES say whether the manifest explains why the app reads or writes \
            health data; an app can only ask for the kinds of access it explains. DIRECT says whether the \
            app may connect to healthd without health-sandbox (`healthctl apps allow-direct`). NETWORK: "on" when \
            the manifest asks for network access and you allowed it (`healthctl apps allow-network`), \
            "requested" when only the manifest asks, "permitted" when only you allowed it, else "off"; \
            an app has a network only when it is "on". An app whose installed manifest no longer passes the checks \
            an install makes (installed before a rule existed) is listed below the table as needing reinstalling: \
            healthd neither launches nor serves it until you install its (fixed) manifest again. One whose id no \
            app may have (outside ASCII, say — it could look like another app's — or not reverse-DNS, such as \
            `manager`, the access log's name for you) is shown with such characters as \\u{…} and listed as \
            needing removing: `healthctl apps remove` takes the id as shown.

            Example:
              healthctl apps list
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let list = try await client.installedApps()
        let apps = list.manifests
        let io = CommandIO.current
        if apps.isEmpty {
            io.output.writeLine("No apps are installed. Install one with `healthctl apps install MANIFEST.json`.")
            return
        }
        io.output.write(Self.table(apps, directConnectionAppIDs: list.directConnectionAppIDs, networkAppIDs: list.networkAppIDs)
            .rendered(emphasize: io.emphasized))
        // The rule healthd applies where it serves an app (`InstalledManifestCheck`).
        for app in apps.sorted(by: { $0.id < $1.id }) where !app.problems.isEmpty {
            if AppIDRule.isValid(app.id) {
                io.output.writeLine("\n\(app.id) needs reinstalling: healthd will not launch it or let it connect until its manifest, "
                                    + "fixed, is installed again (`healthctl apps install MANIFEST.json`): \(app.problems.joined(separator: "; "))")
            } else {
                // No manifest can be installed under such an id (an older version let it in: a
                // look-alike of another app's, say); it can only go. Shown spelled, so it does not
                // pass for the app it looks like, and in the form `apps remove` takes.
                let spelled = AppIDRule.spelled(app.id)
                io.output.writeLine("\n\(spelled) needs removing: its \(AppIDRule.message); healthd will not launch it or let it "
                                    + "connect, and no manifest can be installed under it (`healthctl apps remove '\(spelled)'`)")
            }
        }
    }

    static func table(_ apps: [AppManifest], directConnectionAppIDs: Set<String> = [], networkAppIDs: Set<String> = []) -> TextTable {
        var table = TextTable([.init("ID"), .init("NAME"), .init("VERSION"), .init("READS"), .init("WRITES"),
                               .init("DIRECT"), .init("NETWORK"), .init("EXECUTABLE"), .init("ENTITLEMENTS")])
        for app in apps.sorted(by: { $0.id < $1.id }) {
            table.append([AppIDRule.spelled(app.id), app.displayName, app.version,
                          app.readUsageDescription == nil ? "no" : "yes",
                          app.shareUsageDescription == nil ? "no" : "yes",
                          directConnectionAppIDs.contains(app.id) ? "allowed" : "no",
                          Self.network(asks: app.network, allowed: networkAppIDs.contains(app.id)),
                          app.executable, app.entitlements.joined(separator: ",")])
        }
        return table
    }

    private static func network(asks: Bool, allowed: Bool) -> String {
        switch (asks, allowed) {
        case (true, true): "on"
        case (true, false): "requested"
        case (false, true): "permitted"
        case (false, false): "off"
        }
    }
}
