import ArgumentParser
import HealthModel
import HealthWire

/// `healthctl apps quota APP [SIZE|default]`: shows or sets how much one app may store.
struct AppsQuotaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quota",
        abstract: "Show or set how much health data an app may store.",
        discussion: """
            Every app may store up to a quota (16 GiB unless you set another): what its samples, routes, \
            series, documents, attachments and effort relations take, as healthd counts them, and while the \
            store is locked what it saved since. A save past it is refused whole with errorDataSizeExceeded, \
            naming this command; its other data stays, and deleting some of it makes room. SIZE is bytes with an \
            optional unit (KB, MB, GB, TB in powers of 1000; KiB, MiB, GiB, TiB in powers of 1024); 0 stops \
            every further save of the app; `default` gives it the default back. The store must be unlocked.

            Examples:
              healthctl apps quota org.example.tracker
              healthctl apps quota org.example.tracker 2GB
              healthctl apps quota org.example.tracker default
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "The installed app's id (see `healthctl apps list`).")
    var appID: String

    @Argument(help: "The new quota (e.g. 500MB, 2GiB), or `default`. Without it, shows the app's use and quota.")
    var size: String?

    /// What to do, from the arguments: nil shows; `.some(nil)` goes back to the default.
    var change: Int64?? {
        get throws(ValidationError) {
            guard let size else { return nil }
            if size.lowercased() == "default" { return .some(nil) }
            do {
                return .some(try StorageSize.parse(size))
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    func validate() throws {
        _ = try change
    }

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let output = CommandIO.current.output
        guard let change = try change else {
            guard let entry = try await client.installedApps().storage.first(where: { $0.appID == appID }) else {
                throw ValidationError("no storage use known for \(appID): is it installed (`healthctl apps list`) and the store unlocked?")
            }
            output.writeLine(Self.line(entry))
            return
        }
        let entry = try await client.setAppStorageLimit(appID: appID, limitBytes: change)
        output.writeLine(Self.line(entry))
    }

    static func line(_ entry: AppStorageEntry) -> String {
        "\(entry.appID) stores \(StorageSize.describe(entry.usedBytes)) of its \(StorageSize.describe(entry.limitBytes)) quota"
            + (entry.isDefaultLimit ? " (the default)." : ".")
    }
}
