@testable import HealthManagerCLI
import Foundation
import Testing

/// `healthctl chart`'s drawing and periods, without a broker: bars from zero for totals, ranges
/// with the average marked for the rest, nothing wider than asked, gaps left blank.
@Suite(.timeLimit(.minutes(10))) struct TerminalChartTests {
    func bucket(_ label: String, _ values: [Double]) -> TerminalChart.Bucket {
        var bucket = TerminalChart.Bucket(label: label)
        for value in values { bucket.add(value) }
        return bucket
    }

    func bar(_ line: String) -> Substring {
        let afterAxis = line.split(separator: "│", maxSplits: 1)[1]
        return afterAxis
    }

    @Test func totalsAreBarsFromZeroInProportion() {
        let chart = TerminalChart(style: .totals, unit: "count", width: 60)
        let lines = chart.lines([bucket("2024-05-01", [4000, 4000]), bucket("2024-05-02", [4000]), bucket("2024-05-03", [])])
        let full = bar(lines[0]).filter { $0 == "█" }.count, half = bar(lines[1]).filter { $0 == "█" }.count
        #expect(full > 0 && abs(Double(half) / Double(full) - 0.5) < 0.06, "\(lines)")
        #expect(lines[0].hasSuffix("8000") && lines[1].hasSuffix("4000") && chart.legend.hasSuffix("in count"))
        #expect(!lines[2].contains("█") && lines[2].trimmingCharacters(in: .whitespaces).hasSuffix("│"), "a day without samples is a gap")
    }

    @Test(arguments: [50, 60, 80, 200]) func noLineIsWiderThanAsked(width: Int) {
        for style in [TerminalChart.Style.totals, .ranges] {
            let lines = TerminalChart(style: style, unit: "count/min", width: width)
                .lines([bucket("2024-05-01", [52, 71, 150]), bucket("2024-05-02", [60.5]), bucket("2024-05-03", [])])
            #expect(lines.allSatisfy { $0.count <= width }, "\(style) at \(width): \(lines.map(\.count))")
        }
    }

    @Test func rangesRunFromLowestToHighestWithTheAverageMarked() throws {
        let chart = TerminalChart(style: .ranges, unit: "count/min", width: 80)
        let lines = chart.lines([bucket("a", [50, 100, 150]), bucket("b", [100])])
        let first = Array(bar(lines[0])), second = Array(bar(lines[1]))
        let start = try #require(first.firstIndex(of: "├")), end = try #require(first.firstIndex(of: "┤"))
        let average = try #require(first.firstIndex(of: "●"))
        // 50 is the axis's low end and 150 its high end; the average 100 sits halfway.
        #expect(start == 0 && abs((start + end) / 2 - average) <= 1, "\(lines[0])")
        #expect(second.firstIndex(of: "●") == average, "the same value lines up across periods")
        #expect(lines[0].hasSuffix("50 / 100 / 150") && chart.legend.hasSuffix("in count/min"))
    }

    @Test func aNarrowTerminalGetsTheMinimumWidth() {
        #expect(TerminalChart(style: .totals, unit: "count", width: 5).width == TerminalChart.minimumWidth)
    }

    @Test func weeksStartOnMondayAndMonthsAreLabelledByMonth() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let calendar = ChartCommand.calendar(zone)
        var command = try ChartCommand.parse(["heartRate", "--by", "week", "--from", "2024-05-01", "--to", "2024-05-20"])
        let (start, end) = try command.period(now: Date(), calendar: calendar)
        let weeks = ChartCommand.buckets(start: start, end: end, by: .week, calendar: calendar)
        // 2024-05-01 is a Wednesday: its week starts on Monday 2024-04-29; 2024-05-20 is a Monday.
        #expect(weeks.map(\.bucket.label) == ["2024-04-29", "2024-05-06", "2024-05-13", "2024-05-20"])
        command = try ChartCommand.parse(["bodyMass", "--by", "month", "--from", "2024-01-15", "--to", "2024-03-02"])
        let (monthStart, monthEnd) = try command.period(now: Date(), calendar: calendar)
        #expect(ChartCommand.buckets(start: monthStart, end: monthEnd, by: .month, calendar: calendar).map(\.bucket.label)
                == ["2024-01", "2024-02", "2024-03"])
    }

    /// `healthctl report` takes the page's path as `--html` (its documented name) or `--out`
    /// (issue 16's spelling); it failed with "Unknown option '--out'" before.
    @Test(arguments: ["--html", "--out"])
    func theReportsPageIsNamedByEitherOption(option: String) throws {
        #expect(try ReportCommand.parse([option, "/tmp/page.html"]).html == "/tmp/page.html")
    }

    @Test func tooManyPeriodsAndTypesWithoutQuantitiesAreRefusedBeforeConnecting() {
        #expect(throws: (any Error).self) { try ChartCommand.parse(["stepCount", "--from", "2020-01-01", "--to", "2024-01-01"]) }
        #expect(throws: (any Error).self) { try ChartCommand.parse(["sleepAnalysis"]) }
        #expect(throws: (any Error).self) { try ChartCommand.parse(["heartRate", "--unit", "kg"]) }
        #expect((try? ChartCommand.parse(["stepCount", "--by", "month", "--from", "2020-01-01", "--to", "2024-01-01"])) != nil)
    }
}
