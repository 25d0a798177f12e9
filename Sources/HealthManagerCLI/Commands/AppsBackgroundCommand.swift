import ArgumentParser
import Foundation
import HealthModel

/// `healthctl apps background [APP-ID]`.
struct AppsBackgroundCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "background",
        abstract: "List the types apps asked to be launched for (background delivery).",
        discussion: """
            An app with the background-delivery entitlement may ask, per type, to be launched when that type's \
            data changes in a way it may read while it is not running (HKHealthStore.enableBackgroundDelivery). \
            FREQUENCY is how often at most: immediate, hourly, daily or weekly. Launching needs \
            `health-sandbox agent` running; each launch appears in `healthctl log` as a launch by healthd.

            Examples:
              healthctl apps background
              healthctl apps background org.example.sleep
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "Only this app's registrations (see `healthctl apps list`).")
    var appID: String?

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let registrations = try await client.backgroundDeliveries(appID: appID)
        let io = CommandIO.current
        if registrations.isEmpty {
            io.output.writeLine(appID.map { "\($0) has not enabled background delivery." } ?? "No app has enabled background delivery.")
            return
        }
        io.output.write(Self.table(registrations, timeZone: .current).rendered(emphasize: io.emphasized))
    }

    static func table(_ registrations: [BackgroundDeliveryRegistration], timeZone: TimeZone) -> TextTable {
        var table = TextTable([.init("APP"), .init("TYPE"), .init("FREQUENCY"), .init("ENABLED")])
        let formatter = SampleFormatter(displayUnit: nil, timeZone: timeZone)
        for registration in registrations {
            table.append([registration.appID, TypeDisplayName.words(of: registration.typeIdentifier),
                          registration.frequency.name, formatter.localTime(registration.enabledDate)])
        }
        return table
    }
}
