public import Foundation
import Plot

/// Renders a `ReportData` as one self-contained HTML page: inline CSS, inline SVG charts
/// (`SVGChart`), no script, no external resource — it opens offline, from a mail attachment or a
/// USB stick. Built with Plot, whose `.text` escapes every string that came from data (source
/// names, workout activities), so a source named `<script>…` shows as text and never runs; the
/// page carries a Content-Security-Policy that forbids scripts all the same.
public enum HealthReportRenderer {
    public static func html(_ data: ReportData) -> String {
        var random = SystemRandomNumberGenerator()
        return html(data, random: &random)
    }

    /// `random` moves the hidden areas of `RouteDisplay.hiddenEnds` (`RouteEnds`).
    static func html(_ data: ReportData, random: inout some RandomNumberGenerator) -> String {
        let drawnRoutes: [[[ReportData.RoutePoint]]] = data.workouts.map { workout in
            switch data.routeDisplay {
            case .full: workout.routes
            case .hiddenEnds: RouteEnds.hidden(workout.routes, using: &random)
            case .none: []
            }
        }
        let document = HTML(
            .head(
                .meta(.charset(.utf8)),
                .meta(.attribute(named: "http-equiv", value: "Content-Security-Policy"),
                      .attribute(named: "content", value: "default-src 'none'; style-src 'unsafe-inline'; img-src data:")),
                .title(data.title),
                .style(css)
            ),
            .body(
                .h1(.text(data.title)),
                .p(.class("period"), .text("\(data.period) · generated \(data.generated)")),
                summary(data),
                chartSection("Daily steps", data.steps.isEmpty, SVGChart.bars("steps", title: "Steps per day", data.steps, colour: "#2a9d8f")),
                chartSection("Heart rate", data.heartRate.isEmpty,
                             SVGChart.ranges("heart-rate", title: "Heart rate per day: lowest to highest, average marked (count/min)",
                                             data.heartRate, colour: "#e76f51")),
                .forEach(data.dailyTotals.filter { !$0.values.isEmpty }) { total in
                    chartSection(total.title, false, SVGChart.bars(total.name, title: "\(total.title) per day (\(total.unit))",
                                                                   total.values, colour: "#3a86ff"))
                },
                chartSection("Sleep", data.sleepHours.isEmpty,
                             SVGChart.bars("sleep", title: "Hours asleep per night", data.sleepHours, colour: "#6d597a")),
                chartSection("Body mass", data.bodyMass.isEmpty,
                             SVGChart.line("body-mass", title: "Body mass (kg)", data.bodyMass, colour: "#264653")),
                workouts(data.workouts),
                routeMaps(data.workouts, drawn: drawnRoutes, display: data.routeDisplay),
                .h2("Sources"),
                .ul(.forEach(data.sources) { .li(.text($0)) })
            )
        )
        return document.render(indentedBy: .spaces(1))
    }

    private static func summary(_ data: ReportData) -> Node<HTML.BodyContext> {
        let totalSteps = data.steps.reduce(0) { $0 + $1.value }
        let rows: [(String, String)] = [
            ("Days with steps", "\(data.steps.count)"),
            ("Steps per day (average)", data.steps.isEmpty ? "–" : SVGChart.number(totalSteps / Double(data.steps.count))),
            ("Heart rate, lowest to highest", data.heartRate.isEmpty ? "–"
                : "\(SVGChart.number(data.heartRate.map(\.minimum).min() ?? 0))–\(SVGChart.number(data.heartRate.map(\.maximum).max() ?? 0)) count/min"),
            ("Sleep per night (average)", data.sleepHours.isEmpty ? "–"
                : "\(SVGChart.number(data.sleepHours.reduce(0) { $0 + $1.value } / Double(data.sleepHours.count))) h"),
            ("Workouts", "\(data.workouts.count)"),
        ]
        return .table(.class("summary"), .forEach(rows) { label, value in .tr(.th(.text(label)), .td(.text(value))) })
    }

    private static func chartSection(_ heading: String, _ empty: Bool, _ svg: String) -> Node<HTML.BodyContext> {
        .section(.class("chart-section"), .h2(.text(heading)),
                 empty ? .p(.class("empty"), .text("No data in this period.")) : .div(.class("chart-box"), .raw(svg)))
    }

    private static func workouts(_ rows: [ReportData.Workout]) -> Node<HTML.BodyContext> {
        .section(
            .h2("Workouts"),
            .if(rows.isEmpty, .p(.class("empty"), .text("No workouts in this period.")),
                else: .table(.class("workouts"),
                             .tr(.th("Start"), .th("Activity"), .th("Minutes"), .th("Distance (km)"), .th("Energy (kcal)"), .th("Source")),
                             .forEach(rows) { row in
                                 .tr(.td(.text(row.start)), .td(.text(row.activity)), .td(.text(SVGChart.number(row.minutes))),
                                     .td(.text(row.distanceKilometres.map { String(format: "%.2f", $0) } ?? "–")),
                                     .td(.text(row.energyKilocalories.map(SVGChart.number) ?? "–")), .td(.text(row.source)))
                             }))
        )
    }

    /// One map per workout with something to draw (`drawn`, its routes as `display` leaves
    /// them), captioned, the colour key of the kinds shown, and a line saying what is not drawn.
    private static func routeMaps(_ rows: [ReportData.Workout], drawn: [[[ReportData.RoutePoint]]],
                                  display: RouteDisplay) -> Node<HTML.BodyContext> {
        // `--routes none` asks healthd for no route, so whether a workout had one is not known.
        if display == .none {
            return rows.isEmpty ? .empty
                : .section(.class("routes"), .h2("Routes"), .p(.class("route-note"), .text("Routes are left out of this report.")))
        }
        let withRoutes = rows.filter { !$0.routes.allSatisfy(\.isEmpty) }.count
        guard withRoutes > 0 else { return .empty }
        let mapped = zip(rows, drawn).enumerated().filter { !$0.element.1.allSatisfy(\.isEmpty) }
        let kinds = ReportData.RouteKind.allCases.filter { kind in mapped.contains { $0.element.0.kind == kind } }
        let note: String = switch display {
        case .none:
            "Routes are left out of this report."
        case .hiddenEnds:
            "Around each route's start and end, about \(Int(RouteEnds.radius)) m is not drawn, so the maps do not show where "
                + "a workout began or ended" + (mapped.count < withRoutes ? " (\(withRoutes - mapped.count) stayed within that and have no map)" : "")
                + ". healthctl report --routes full draws whole routes."
        case .full:
            "Whole routes, start (green) and end (black) marked."
        }
        return .section(
            .class("routes"),
            .h2("Routes"),
            .p(.class("route-note"), .text(note)),
            .if(!mapped.isEmpty, .p(.class("legend"), .forEach(kinds) { kind in
                .span(.class("key"), .span(.class("swatch"), .attribute(named: "style", value: "background:\(kind.colour)")),
                      .text(" \(kind.rawValue) "))
            })),
            .div(.class("maps"), .forEach(mapped) { index, pair in
                let row = pair.0
                let caption = "\(row.activity), \(row.start)" + (row.distanceKilometres.map { String(format: ", %.2f km", $0) } ?? "")
                return .div(.class("route-card"),
                            .raw(RouteMap.svg("workout-\(index)", title: "Route: " + caption, routes: pair.1, kind: row.kind,
                                              markEnds: display == .full)),
                            .p(.class("caption"), .text(caption)))
            })
        )
    }

    private static let css = """
        body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 760px; color: #222; }
        h1 { margin-bottom: 0.2em; } .period { color: #666; margin-top: 0; }
        table { border-collapse: collapse; margin: 1em 0; } th, td { text-align: left; padding: 0.25em 0.8em; border-bottom: 1px solid #ddd; }
        svg.chart { width: 100%; height: auto; background: #fafafa; border: 1px solid #eee; }
        .empty { color: #888; font-style: italic; }
        .maps { display: flex; flex-wrap: wrap; gap: 12px; } .route-card { width: 360px; }
        svg.map { width: 360px; height: 240px; border: 1px solid #ccd; } .caption { font-size: 0.85em; color: #444; margin: 0.2em 0; }
        .swatch { display: inline-block; width: 1.6em; height: 0.5em; border-radius: 2px; vertical-align: middle; }
        """
}
