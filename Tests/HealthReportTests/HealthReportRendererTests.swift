@testable import HealthReport
import Foundation
import Testing

/// The page: one SVG per chart with its marks, data text escaped everywhere, no script.
@Suite(.timeLimit(.minutes(10))) struct HealthReportRendererTests {
    static let hostile = #"<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes""#

    func data() -> ReportData {
        ReportData(
            title: "Health report", period: "2024-05-01 – 2024-05-03", generated: "2024-05-04 08:00:00",
            steps: [.init(day: "2024-05-01", value: 8000), .init(day: "2024-05-02", value: 12_345)],
            heartRate: [.init(day: "2024-05-01", minimum: 52, average: 70, maximum: 150)],
            sleepHours: [.init(day: "2024-05-02", value: 7.5)],
            bodyMass: [.init(day: "2024-05-01", value: 72.4), .init(day: "2024-05-03", value: 71.9)],
            workouts: [.init(start: "2024-05-01 07:00:00", activity: "Running", minutes: 29.5, distanceKilometres: 5.2,
                             energyKilocalories: 350, source: Self.hostile)],
            sources: [Self.hostile, "iPhone"])
    }

    @Test func everyChartIsOneSVGWithItsMarks() {
        let page = HealthReportRenderer.html(data())
        #expect(page.components(separatedBy: "<svg class=\"chart\"").count - 1 == 4)
        for name in ["steps", "heart-rate", "sleep", "body-mass"] { #expect(page.contains("data-chart=\"\(name)\"")) }
        #expect(page.components(separatedBy: "<rect class=\"bar\"").count - 1 == 3, "2 step days + 1 night")
        #expect(page.contains("<rect class=\"range\"") && page.contains("<circle class=\"average\""))
        #expect(page.contains("<polyline class=\"line\""))
    }

    @Test func textFromDataIsEscapedAndThePageHasNoScript() {
        let page = HealthReportRenderer.html(data())
        #expect(!page.lowercased().contains("<script"))
        #expect(!page.contains("<img"))
        #expect(page.contains("&lt;script&gt;"))
        #expect(page.contains("Content-Security-Policy"))
        #expect(SVGChart.escaped(Self.hostile).contains("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;"))
    }

    @Test func anEmptyPeriodSaysSoInsteadOfDrawingEmptyCharts() {
        let page = HealthReportRenderer.html(ReportData(title: "Health report", period: "p", generated: "g"))
        #expect(!page.contains("<svg"))
        #expect(page.components(separatedBy: "No data in this period.").count - 1 == 4)
    }

    @Test func eachTypeWithDailyTotalsIsOneMoreChartAndEmptyOnesAreLeftOut() {
        var data = data()
        data.dailyTotals = [
            .init(name: "active-energy", title: "Active energy", unit: "kcal", values: [.init(day: "2024-05-01", value: 420)]),
            .init(name: "flights-climbed", title: "Flights climbed", unit: "count", values: []),
        ]
        let page = HealthReportRenderer.html(data)
        #expect(page.components(separatedBy: "<svg class=\"chart\"").count - 1 == 5)
        #expect(page.contains("data-chart=\"active-energy\"") && page.contains("Active energy per day (kcal)"))
        #expect(!page.contains("flights-climbed"))
    }

    @Test func axisTopsAreRoundNumbers() {
        #expect(SVGChart.niceCeiling(12_345) == 20_000)
        #expect(SVGChart.niceCeiling(150) == 200)
        #expect(SVGChart.niceCeiling(0) == 1)
        #expect(SVGChart.niceCeiling(.infinity) == 1)
    }
}
