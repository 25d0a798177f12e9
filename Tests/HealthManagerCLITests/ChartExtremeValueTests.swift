@testable import HealthManagerCLI
import Foundation
import HealthReport
import Testing

/// Charts draw whatever the store holds (session 18 storage review, finding 3). A sample is
/// bounded (1e12 in its unit for most quantity types), but a period's total of millions of them,
/// converted to a display unit, is not: `healthctl chart` and `healthctl report` once converted such
/// numbers to Int64 and trapped from 9.2e18 up, so every later chart of that period crashed. Every
/// value below, alone and beside ordinary ones, in every style and bucket layout, must draw: no
/// trap, no "inf" or "nan" in what is printed, lines no wider than asked, the exponent form from
/// 1e15 up. (Fails before ChartNumber: the first case above 9.2e18 traps the test process.)
@Suite(.timeLimit(.minutes(10))) struct ChartExtremeValueTests {
    /// Sample values and totals at and past every edge a chart's arithmetic has.
    static let extremes: [Double] = [
        0, -0.0, 1, -1, 99.95, 100, 1e12, -1e12, 1e15, 9.2e18, 9.3e18, -9.3e18, 1e19, 1e21, 1e300,
        Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, .leastNonzeroMagnitude,
        .infinity, -.infinity, .nan,
    ]

    /// How the extreme sits among a period's buckets.
    enum Layout: CaseIterable { case alone, besideOrdinary, sumOverflows }

    func buckets(_ value: Double, _ layout: Layout) -> [TerminalChart.Bucket] {
        func bucket(_ label: String, _ values: [Double]) -> TerminalChart.Bucket {
            var bucket = TerminalChart.Bucket(label: label)
            for value in values { bucket.add(value) }
            return bucket
        }
        switch layout {
        case .alone: return [bucket("2024-05-01", [value])]
        case .besideOrdinary: return [bucket("2024-05-01", [72, 80]), bucket("2024-05-02", [value, 60]), bucket("2024-05-03", [])]
        case .sumOverflows: return [bucket("2024-05-01", Array(repeating: value, count: 3)), bucket("2024-05-02", [1])]
        }
    }

    @Test(arguments: extremes)
    func terminalChartDrawsEveryValue(value: Double) {
        for layout in Layout.allCases {
            for style in [TerminalChart.Style.totals, .ranges] {
                let lines = TerminalChart(style: style, unit: "min", width: 80).lines(buckets(value, layout))
                for line in lines {
                    #expect(!line.lowercased().contains("inf") && !line.lowercased().contains("nan"), "\(value) \(layout) \(style): \(line)")
                }
                // A line is as wide as asked unless its numbers need more (TerminalChart's rule).
                #expect(lines.allSatisfy { $0.count <= 80 }, "\(value) \(layout) \(style): \(lines)")
            }
        }
    }

    @Test(arguments: extremes)
    func reportDrawsEveryValue(value: Double) {
        var data = ReportData(title: "Health report", period: "p", generated: "g")
        data.steps = [.init(day: "2024-05-01", value: value), .init(day: "2024-05-02", value: 4000)]
        data.bodyMass = [.init(day: "2024-05-01", value: 70), .init(day: "2024-05-02", value: value)]
        data.heartRate = [.init(day: "2024-05-01", minimum: -value, average: 0, maximum: value),
                          .init(day: "2024-05-02", minimum: 50, average: value, maximum: 120)]
        data.dailyTotals = [.init(name: "exercise", title: "Exercise", unit: "min",
                                  values: [.init(day: "2024-05-01", value: value), .init(day: "2024-05-02", value: 30)])]
        let page = HealthReportRenderer.html(data)
        #expect(!page.contains("inf") && !page.contains("nan") && !page.contains("NaN"), "\(value)")
        #expect(page.contains("data-chart=\"steps\""), "\(value): the steps chart is drawn")
    }

    @Test func labelsKeepWholeNumbersAndUseAnExponentOnlyForJunkSizes() {
        #expect(ChartNumber.label(8000) == "8000")
        #expect(ChartNumber.label(36.6) == "36.6")
        #expect(ChartNumber.label(-0.0) == "0")
        #expect(ChartNumber.label(9.3e18) == "9.3e+18")
        #expect(ChartNumber.label(.infinity) == "–" && ChartNumber.label(.nan) == "–")
        #expect(ChartNumber.cell(.infinity, low: 0, high: 10, cells: 10) == 9)
        #expect(ChartNumber.cell(5, low: -Double.greatestFiniteMagnitude, high: .greatestFiniteMagnitude, cells: 11) == 5)
    }
}
