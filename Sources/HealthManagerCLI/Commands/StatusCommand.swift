import ArgumentParser
import HealthWire

/// `healthctl status`: is healthd up, where does it keep things, how busy is it.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show healthd's status: store, sockets, apps, pending requests, samples.",
        discussion: """
            Example:
              healthctl status
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let status = try await client.status()
        CommandIO.current.output.write(Self.render(status))
    }

    static func render(_ status: BrokerStatus) -> String {
        let rows: [(String, String)] = [
            ("healthd version", status.version.isEmpty ? "unknown" : status.version),
            ("Store directory", status.storeDirectory),
            ("Store", status.readOnlyReason.isEmpty ? "writable" : "read-only: \(status.readOnlyReason)"),
            ("Locked", status.locked ? "yes (healthctl unlock); saves are kept until then" : "no"),
            ("App socket", status.appSocket),
            ("Admin socket", status.adminSocket),
            ("Installed apps", "\(status.installedApps)"),
            ("Pending requests", "\(status.pendingRequests)"),
            ("Connected apps", "\(status.connectedApps)"),
            ("Samples", status.locked ? "unknown while locked" : "\(status.sampleCount)"),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { label, value in
            label + ":" + String(repeating: " ", count: width - label.count + 2) + value + "\n"
        }.joined()
    }
}
