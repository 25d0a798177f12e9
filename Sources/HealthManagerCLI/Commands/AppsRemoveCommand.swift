import ArgumentParser
import Foundation
import HealthModel
import HealthWire

/// `healthctl apps remove APP`: uninstall an app; keep or delete what it saved.
struct AppsRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove an app: its manifest, every grant, its background deliveries; and its data if you say so.",
        discussion: """
            Its permissions end at once, including queries it has running. The samples it saved \
            are your data: you are asked whether to delete them too (--delete-data or --keep-data \
            answer in advance). Deleted samples reach other apps as deleted objects.

            Examples:
              healthctl apps remove org.example.sleep
              healthctl apps remove org.example.sleep --delete-data
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The app's id (see `healthctl apps list`).", valueName: "app-id"))
    var appID: String

    @Flag(help: "Also delete every sample the app saved, without asking.")
    var deleteData = false

    @Flag(help: "Keep the samples the app saved, without asking.")
    var keepData = false

    func validate() throws {
        if deleteData && keepData { throw ValidationError("--delete-data and --keep-data contradict each other; give one") }
    }

    func run() async throws {
        let io = CommandIO.current
        let client = try connection.connect()
        defer { client.close() }
        // Asked only for an app that is installed: a typo fails before any question.
        // By bytes, as healthd finds it: Swift's `==` would take `com.example.Keep` for a look-alike
        // `com.example.\u{212A}eep` an older version installed (`AppIDRule`).
        // An id no app may have is also found as `apps list` shows it (`AppIDRule.spelled`), so it
        // can be removed by what the user reads.
        let installed = try await client.listApps()
        guard let app = installed.first(where: { $0.id.utf8.elementsEqual(appID.utf8) })
            ?? installed.first(where: { !AppIDRule.isValid($0.id) && AppIDRule.spelled($0.id) == appID }) else {
            throw HealthCtlError.brokerFailed(action: "remove \(appID)",
                                              status: RPCStatus(.invalidArgument, "no installed app \(appID); see `healthctl apps list`"))
        }
        let delete = deleteData || (!keepData && Confirmation.ask("Also delete every sample \(app.displayName) saved?", io: io))
        let deleted = try await client.removeApp(app.id, deleteData: delete)
        io.output.writeLine("Removed \(app.displayName) (\(AppIDRule.spelled(app.id))); " + (delete ? "deleted the \(deleted) sample\(deleted == 1 ? "" : "s") it saved." : "the samples it saved are kept."))
    }
}
