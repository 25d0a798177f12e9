import ArgumentParser
import Foundation
import Glibc
import HealthModel
import HealthWire

/// `healthctl chart TYPE`: a quantity type per day, week or month in the terminal.
struct ChartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart",
        abstract: "Chart a quantity type per day, week or month in the terminal.",
        discussion: """
            Types that add up (steps, energy, distance) are drawn as bars of each period's total; \
            others (heart rate, body mass) as each period's range from lowest to highest with the \
            average marked ●, and the numbers min / avg / max. Values are in your preferred unit \
            (`healthctl units`) unless --unit is given. The chart fits the terminal's width (or \
            --width). Every source's samples count, as in the report. The period defaults to the \
            last 30 days, 12 weeks or 12 months; dates are as for `healthctl samples`.

            Examples:
              healthctl chart stepCount
              healthctl chart heartRate --by week --from 2024-01-01 --to 2024-03-31
              healthctl chart bodyMass --by month --unit lb
            """)

    enum Period: String, ExpressibleByArgument, CaseIterable {
        case day, week, month
    }

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The quantity type: \(HealthTypeArgument.valueHelp).", valueName: "type"),
              completion: HealthTypeArgument.completion, transform: HealthTypeArgument.identifier)
    var type: String

    @Option(help: ArgumentHelp("One line per day, week (from Monday) or month.", valueName: "day|week|month"))
    var by: Period = .day

    @Option(help: ArgumentHelp("First day of the chart (default: 30 days, 12 weeks or 12 months before --to).", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var from: DateArgument?

    @Option(help: ArgumentHelp("Last day of the chart (default: today).", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var to: DateArgument?

    @Option(help: ArgumentHelp("Show values in this HealthKit unit (e.g. kg, lb, count/min, km).", valueName: "unit"),
            transform: SamplesCommand.parseUnit)
    var unit: HKUnit?

    @Option(help: ArgumentHelp("Width in columns (default: the terminal's, else 80).", valueName: "n"))
    var width: Int?

    /// At most this many lines: a day-by-day chart of ten years is not a terminal chart.
    static let maximumPeriods = 400

    func validate() throws {
        guard let quantityType = HKObjectType.type(forIdentifier: type) as? HKQuantityType else {
            throw ValidationError("\(TypeDisplayName.words(of: type)) is not a quantity type; chart draws types such as stepCount or heartRate")
        }
        if let unit, !quantityType.is(compatibleWith: unit) {
            throw ValidationError("\(unit.unitString) does not measure \(TypeDisplayName.words(of: type)) (its unit is \(quantityType.canonicalUnit.unitString))")
        }
        if let width, width < TerminalChart.minimumWidth { throw ValidationError("--width must be at least \(TerminalChart.minimumWidth)") }
        let calendar = Self.calendar(CommandIO.current.timeZone)
        let (start, end) = try period(now: Date(), calendar: calendar)
        if start >= end { throw ValidationError("--from \(from?.text ?? "") is not before --to \(to?.text ?? "today")") }
        if Self.buckets(start: start, end: end, by: by, calendar: calendar).count > Self.maximumPeriods {
            throw ValidationError("that is more than \(Self.maximumPeriods) \(by.rawValue)s; chart by week or month, or a shorter range")
        }
    }

    func run() async throws {
        let io = CommandIO.current
        let calendar = Self.calendar(io.timeZone)
        let (start, end) = try period(now: Date(), calendar: calendar)
        guard let quantityType = HKObjectType.type(forIdentifier: type) as? HKQuantityType else { return }
        let client = try connection.connect()
        defer { client.close() }
        let shown: HKUnit
        if let unit { shown = unit } else { shown = ExportUnits(preferences: try await client.listUnitPreferences()).unit(for: quantityType) }

        var buckets = Self.buckets(start: start, end: end, by: by, calendar: calendar)
        let starts = buckets.map(\.start)
        let spec = SampleQuerySpec(typeIdentifier: type, predicate: .dateRange(start: start, end: end, strictStart: false, strictEnd: false),
                                   sort: [SampleSort(.startDate, ascending: true)])
        var samples = 0
        for try await batch in client.querySamples(spec) {
            for sample in batch.samples {
                guard case let .quantity(value, stored) = sample.value,
                      let converted = try? HKQuantity(unit: HKUnit.parse(stored), doubleValue: value).value(in: shown) else { continue }
                // A sample counts in the period it starts in (one that began before the chart, in the first).
                let index = max(0, (starts.lastIndex { $0 <= sample.startDate }) ?? 0)
                buckets[index].bucket.add(converted)
                samples += 1
            }
        }
        let range = "\(CalendarDay(containing: start, in: io.timeZone)) – \(CalendarDay(containing: end.addingTimeInterval(-1), in: io.timeZone))"
        guard samples > 0 else {
            io.output.writeLine("No \(TypeDisplayName.words(of: type)) samples in \(range).")
            return
        }
        let title = "\(TypeDisplayName.words(of: type)) per \(by.rawValue), \(range)"
        let chart = TerminalChart(style: quantityType.aggregationStyle == .cumulative ? .totals : .ranges,
                                  unit: shown.unitString, width: width ?? Self.terminalWidth())
        io.output.writeLine(io.emphasized(title))
        io.output.writeLine(chart.legend)
        for line in chart.lines(buckets.map(\.bucket)) { io.output.writeLine(line) }
    }

    /// [start, end): --from's first day (else 30 days, 12 weeks or 12 months back), through --to's
    /// last day (else today), widened to whole weeks or months.
    func period(now: Date, calendar: Calendar) throws(DateArgumentError) -> (Date, Date) {
        let timeZone = calendar.timeZone
        let endOfToday = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) ?? now
        let end = try to?.end(in: timeZone) ?? endOfToday
        let back: DateComponents = switch by {
        case .day: DateComponents(day: -30)
        case .week: DateComponents(day: -7 * 12)
        case .month: DateComponents(month: -12)
        }
        let start = try from?.start(in: timeZone) ?? calendar.date(byAdding: back, to: end) ?? end
        let component: Calendar.Component = by == .day ? .day : by == .week ? .weekOfYear : .month
        let first = calendar.dateInterval(of: component, for: start)?.start ?? start
        let lastInterval = calendar.dateInterval(of: component, for: end.addingTimeInterval(-1))
        return (first, max(lastInterval?.end ?? end, first))
    }

    /// The periods between start and end, each with its label.
    static func buckets(start: Date, end: Date, by: Period, calendar: Calendar) -> [(start: Date, bucket: TerminalChart.Bucket)] {
        var result: [(start: Date, bucket: TerminalChart.Bucket)] = []
        var cursor = start
        let step: DateComponents = by == .day ? DateComponents(day: 1) : by == .week ? DateComponents(day: 7) : DateComponents(month: 1)
        while cursor < end, result.count <= maximumPeriods {
            let day = CalendarDay(containing: cursor, in: calendar.timeZone).description
            let label = by == .month ? String(day.prefix(7)) : day
            result.append((cursor, TerminalChart.Bucket(label: label)))
            guard let next = calendar.date(byAdding: step, to: cursor), next > cursor else { break }
            cursor = next
        }
        return result
    }

    /// Gregorian, weeks from Monday (ISO 8601), in the user's zone.
    static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = timeZone
        return calendar
    }

    /// $COLUMNS, else the terminal's width when standard output is one, else 80.
    static func terminalWidth() -> Int {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
