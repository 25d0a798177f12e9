import ArgumentParser
import HealthModel
import HealthWire

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
            an app has a network only when it is "on". STORAGE: what the app's data takes of its quota \
            (`healthctl apps quota`); not shown while the store is locked. An app whose installed manifest no longer \
            passes the checks an install makes (installed before a rule existed) is listed below the table as needing \
            reinstalling: healthd neither launches nor serves it until you install its (fixed) manifest again.

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
        io.output.write(Self.table(apps, directConnectionAppIDs: list.directConnectionAppIDs, networkAppIDs: list.networkAppIDs,
                                   storage: list.storage)
            .rendered(emphasize: io.emphasized))
        // The rule healthd applies where it serves an app (`InstalledManifestCheck`).
        for app in apps.sorted(by: { $0.id < $1.id }) where !app.problems.isEmpty {
            io.output.writeLine("\n\(app.id) needs reinstalling: healthd will not launch it or let it connect until its manifest, "
                                + "fixed, is installed again (`healthctl apps install MANIFEST.json`): \(app.problems.joined(separator: "; "))")
        }
    }

    static func table(_ apps: [AppManifest], directConnectionAppIDs: Set<String> = [], networkAppIDs: Set<String> = [],
                      storage: [AppStorageEntry] = []) -> TextTable {
        // STORAGE only from a healthd that reports it, with the store unlocked.
        let storageByApp = Dictionary(storage.map { ($0.appID, $0) }, uniquingKeysWith: { first, _ in first })
        var columns: [TextTable.Column] = [.init("ID"), .init("NAME"), .init("VERSION"), .init("READS"), .init("WRITES"),
                                           .init("DIRECT"), .init("NETWORK")]
        if !storageByApp.isEmpty { columns.append(.init("STORAGE")) }
        var table = TextTable(columns + [.init("EXECUTABLE"), .init("ENTITLEMENTS")])
        for app in apps.sorted(by: { $0.id < $1.id }) {
            var row = [app.id, app.displayName, app.version,
                       app.readUsageDescription == nil ? "no" : "yes",
                       app.shareUsageDescription == nil ? "no" : "yes",
                       directConnectionAppIDs.contains(app.id) ? "allowed" : "no",
                       Self.network(asks: app.network, allowed: networkAppIDs.contains(app.id))]
            if !storageByApp.isEmpty {
                row.append(storageByApp[app.id].map { "\(StorageSize.short($0.usedBytes)) of \(StorageSize.short($0.limitBytes))" } ?? "")
            }
            table.append(row + [app.executable, app.entitlements.joined(separator: ",")])
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
