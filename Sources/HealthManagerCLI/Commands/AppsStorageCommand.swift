import ArgumentParser
import HealthModel
import HealthWire

/// `healthctl apps storage [APP-ID] [--bound SIZE | --default]`: what each app stores, and its bound.
struct AppsStorageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storage",
        abstract: "Show what each app stores in the health store, or set an app's storage bound.",
        discussion: """
            STORED is healthd's count of what the app's samples take in the store (an estimate per sample: its \
            row, metadata and series); what it deletes is given back, less a small record of each deletion, which \
            stays. BOUND is the most it may store: the default unless you set one. An app at its bound has its \
            saves refused (HealthKit's errorDataSizeExceeded, and a "refused" entry in `healthctl log`), while \
            every other app and your own entries go on; it can delete its data to make room, or you can raise \
            its bound. Data you import (`healthctl import`) or enter (`healthctl add`) counts against no app.

            While the store is locked, JOURNALED shows what each app saved since the lock; an app may save up \
            to the journal bound until you unlock, so unlocking merges a bounded amount per app.

            SIZE is a number of bytes with an optional unit: 512MiB, 2GiB, 1.5GB (binary units either way).

            Examples:
              healthctl apps storage
              healthctl apps storage org.example.sleep --bound 2GiB
              healthctl apps storage org.example.sleep --default
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "An installed app's id (see `healthctl apps list`), to set its bound.")
    var appID: String?

    @Option(help: "The most the app may store, e.g. 2GiB.")
    var bound: String?

    @Flag(name: .customLong("default"), help: "Give the app the default bound again.")
    var useDefault = false

    @Flag(help: "Show sizes as exact byte counts (for scripts).")
    var bytes = false

    func validate() throws {
        if bound != nil && useDefault { throw ValidationError("give either --bound SIZE or --default, not both") }
        if (bound != nil || useDefault) && appID == nil { throw ValidationError("name the app whose bound to set") }
        if appID != nil && bound == nil && !useDefault {
            throw ValidationError("give --bound SIZE or --default to set the app's bound; without an app, the listing shows every app")
        }
        if let bound, (ByteSize.parse(bound) ?? 0) <= 0 {
            throw ValidationError("--bound '\(bound)' is not a size; give a number of bytes with an optional unit, e.g. 512MiB or 2GiB")
        }
    }

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let io = CommandIO.current
        guard let appID else {
            io.output.write(Self.rendered(try await client.appStorage(), exact: bytes, emphasize: io.emphasized))
            return
        }
        let bound = self.bound.flatMap(ByteSize.parse)
        let listing = try await client.setStorageBound(appID: appID, bytes: bound)
        let now = listing.apps.first { $0.appID == appID }
        let stored = now.map { "; it stores \(ByteSize.text($0.usedBytes))" } ?? ""
        io.output.writeLine(bound.map { "\(appID) may now store \(ByteSize.text($0))\(stored)." }
            ?? "\(appID) has the default bound again (\(ByteSize.text(listing.defaultBoundBytes)))\(stored).")
    }

    static func rendered(_ listing: AppStorageList, exact: Bool = false, emphasize: (String) -> String = { $0 }) -> String {
        func size(_ bytes: Int64) -> String { exact ? String(bytes) : ByteSize.text(bytes) }
        if listing.apps.isEmpty { return "No apps are installed and no app stores anything.\n" }
        var columns: [TextTable.Column] = [.init("APP"), .init("STORED", .right), .init("BOUND", .right), .init("USED", .right)]
        if listing.locked { columns.append(.init("JOURNALED", .right)) }
        var table = TextTable(columns)
        for app in listing.apps {
            let share = app.boundBytes > 0 ? Double(app.usedBytes) / Double(app.boundBytes) * 100 : 0
            var row = [app.appID + (app.installed ? "" : " (removed)"), size(app.usedBytes),
                       size(app.boundBytes) + (app.boundSet ? "" : " (default)"),
                       app.usedBytes >= app.boundBytes ? "full" : "\(Int(share.rounded(.down)))%"]
            if listing.locked { row.append("\(size(app.journaledBytes)) of \(size(listing.journalBoundBytes))") }
            table.append(row)
        }
        var text = table.rendered(emphasize: emphasize)
        if listing.locked {
            text += "\nThe store is locked: STORED is as of the lock; JOURNALED is what each app saved since, merged at `healthctl unlock`.\n"
        }
        return text
    }
}
