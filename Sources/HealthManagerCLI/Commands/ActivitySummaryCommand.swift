import ArgumentParser
import Foundation
import HealthModel

/// `healthctl activity summary [--days N] [--through DAY]`.
struct ActivitySummaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Your daily activity: each ring's value and goal, for the days with data.",
        discussion: """
            Days are calendar days in your time zone. Days without any activity data are not listed.

            Example:
              healthctl activity summary --days 30
            """)

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "How many days, ending with --through.")
    var days = 7

    @Option(help: ArgumentHelp("The last day, YYYY-MM-DD (default: today).", valueName: "day"))
    var through: String?

    func validate() throws {
        guard (1...36_600).contains(days) else { throw ValidationError("--days takes 1 to 36600 days; got \(days)") }
        if let through, CalendarDay(iso8601: through) == nil {
            throw ValidationError("--through takes a day as YYYY-MM-DD, e.g. 2026-05-01; got \(through.prefix(40))")
        }
    }

    /// The request for the days asked, in `timeZone`, ending `today` unless --through.
    func spec(today: CalendarDay, timeZone: TimeZone) throws -> ActivitySummaryQuerySpec {
        let last = through.flatMap(CalendarDay.init(iso8601:)) ?? today
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // Noon, so stepping back whole days never lands on a DST change's missing or doubled hour.
        guard let noon = calendar.date(from: DateComponents(year: last.year, month: last.month, day: last.day, hour: 12)),
              let firstNoon = calendar.date(byAdding: .day, value: 1 - days, to: noon)
        else { throw ValidationError("cannot count \(days) days back from \(last) in \(timeZone.identifier)") }
        return ActivitySummaryQuerySpec(firstDay: CalendarDay(containing: firstNoon, in: timeZone), lastDay: last,
                                        timeZoneIdentifier: timeZone.identifier)
    }

    func run() async throws {
        let io = CommandIO.current
        let client = try connection.connect()
        defer { client.close() }
        var summaries: [ActivitySummaryRecord] = []
        for try await batch in client.activitySummaries(try spec(today: CalendarDay(containing: Date(), in: io.timeZone),
                                                             timeZone: io.timeZone)) {
            summaries += batch.summaries
        }
        guard !summaries.isEmpty else {
            io.output.writeLine("No activity data in those days.")
            return
        }
        io.output.write(ActivityTables.summaries(summaries).rendered(emphasize: io.emphasized))
    }
}
