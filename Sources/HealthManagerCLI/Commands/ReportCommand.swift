import ArgumentParser
import Foundation
import HealthModel
import HealthReport

/// `healthctl report --html FILE`: one self-contained HTML page about a period.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write an HTML report of a period: daily steps and totals, heart rate, sleep, body mass, workouts and their routes.",
        discussion: """
            One file with its charts drawn inline (SVG) and no script or outside resource: it \
            opens in any browser without a network. Each workout with a route gets a map (no \
            tiles): walks green, runs red, rides blue, hikes brown, swims cyan, wheelchair \
            pushes purple, other activities grey. A report is made to be handed on, and routes that \
            begin at your door say where you live: by default about 500 m around each route's start \
            and end is not drawn (the hidden area moved at random, as privacy zones do) and no \
            start or end is marked; --routes full draws whole routes, --routes none leaves maps out. \
            Readable by you only (mode 0600). The period defaults to the last 30 days; dates are as \
            for `healthctl samples`.

            Example:
              healthctl report --html ~/health-may.html --from 2024-05-01 --to 2024-05-31
            """)

    @OptionGroup var connection: ConnectionOptions

    // `--out` too: issue 16 asked for `healthctl report --out report.html`, and a user who read
    // that was told the option did not exist.
    @Option(name: [.customLong("html"), .customLong("out")], help: ArgumentHelp("Where to write the page.", valueName: "file.html"),
            completion: .file(extensions: ["html"]))
    var html: String

    @Option(help: ArgumentHelp("First day of the period (default: 30 days before --to).", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var from: DateArgument?

    @Option(help: ArgumentHelp("Last day of the period (default: today).", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var to: DateArgument?

    @Option(help: ArgumentHelp("How workout routes are drawn: hidden-ends (default: not the ~500 m around each start and end), "
                               + "full (whole routes, start and end marked) or none (no maps).", valueName: "mode"))
    var routes: RouteChoice = .hiddenEnds

    func validate() throws {
        let (start, end) = try period(now: Date(), timeZone: CommandIO.current.timeZone)
        if start >= end { throw ValidationError("--from \(from?.text ?? "") is not before --to \(to?.text ?? "today")") }
    }

    func run() async throws {
        let io = CommandIO.current
        let (start, end) = try period(now: Date(), timeZone: io.timeZone)
        let client = try connection.connect()
        defer { client.close() }
        let collector = ReportCollector(client: client, start: start, end: end, timeZone: io.timeZone, readsRoutes: routes != .none)
        let lastDay = CalendarDay(containing: end.addingTimeInterval(-1), in: io.timeZone)
        let data = try await collector.collect(
            title: "Health report", period: "\(CalendarDay(containing: start, in: io.timeZone)) – \(lastDay)",
            generated: SampleFormatter(displayUnit: nil, timeZone: io.timeZone).localTime(Date()), routes: routes.display)
        var output = try StagedOutput(destination: URL(fileURLWithPath: html), kind: .file)
        do {
            let file = BufferedFile(handle: try output.createFile(), path: html)
            try file.write(HealthReportRenderer.html(data))
            try file.close()
            try output.commit()
        } catch {
            output.discard()
            throw error
        }
        io.output.writeLine("Wrote \(URL(fileURLWithPath: html).standardizedFileURL.path): \(data.steps.count) days of steps, \(data.heartRate.count) of heart rate, \(data.sleepHours.count) nights, \(data.bodyMass.count) weighings, \(data.workouts.count) workouts.")
    }

    /// [start, end): --from's start (else 30 days before the end), --to's end (else the end of today).
    func period(now: Date, timeZone: TimeZone) throws(DateArgumentError) -> (Date, Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let endOfToday = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) ?? now
        let end = try to?.end(in: timeZone) ?? endOfToday
        let start = try from?.start(in: timeZone) ?? calendar.date(byAdding: .day, value: -30, to: end) ?? end.addingTimeInterval(-30 * 86_400)
        return (start, end)
    }
}

/// `--routes`: `RouteDisplay`'s cases by their names on the command line.
enum RouteChoice: String, ExpressibleByArgument, CaseIterable {
    case hiddenEnds = "hidden-ends"
    case full
    case none

    var display: RouteDisplay {
        switch self {
        case .hiddenEnds: .hiddenEnds
        case .full: .full
        case .none: .none
        }
    }
}
