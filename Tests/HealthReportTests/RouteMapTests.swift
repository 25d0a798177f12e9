@testable import HealthReport
import Foundation
import Testing

/// Route maps: fitted to the route's bounds with the aspect kept, coloured by activity, start and
/// end markers on the route's ends, nothing outside the canvas — one dimension varied at a time.
@Suite(.timeLimit(.minutes(10))) struct RouteMapTests {
    /// A straight line from (lat0, lon0) to (lat1, lon1) in `count` points.
    func line(_ lat0: Double, _ lon0: Double, _ lat1: Double, _ lon1: Double, count: Int = 20) -> [ReportData.RoutePoint] {
        (0..<count).map { index in
            let t = Double(index) / Double(count - 1)
            return ReportData.RoutePoint(latitude: lat0 + (lat1 - lat0) * t, longitude: lon0 + (lon1 - lon0) * t)
        }
    }

    func bounds(_ placed: RouteMap.Placed) -> (minX: Double, maxX: Double, minY: Double, maxY: Double) {
        let all = placed.tracks.joined()
        return (all.map(\.x).min() ?? .nan, all.map(\.x).max() ?? .nan, all.map(\.y).min() ?? .nan, all.map(\.y).max() ?? .nan)
    }

    @Test func aWideRouteFillsTheWidthAndIsCentredVertically() {
        // 0.1° of longitude at the equator is far wider than 0.01° of latitude is tall.
        let placed = RouteMap.place([line(0, 0, 0.01, 0.1)])
        let box = bounds(placed)
        #expect(abs(box.minX - RouteMap.margin) < 0.01 && abs(box.maxX - (RouteMap.width - RouteMap.margin)) < 0.01)
        #expect(abs((box.minY + box.maxY) / 2 - RouteMap.height / 2) < 0.01, "centred: \(box)")
        // Aspect kept: 0.01° tall over 0.1° wide at the equator is a tenth of the width.
        let aspect = (box.maxY - box.minY) / (box.maxX - box.minX)
        #expect(abs(aspect - 0.1) < 0.001, "\(aspect)")
    }

    @Test func aTallRouteFillsTheHeightAndIsNotStretchedSideways() {
        let placed = RouteMap.place([line(52.50, 13.40, 52.52, 13.401)])
        let box = bounds(placed)
        #expect(abs(box.minY - RouteMap.margin) < 0.01 && abs(box.maxY - (RouteMap.height - RouteMap.margin)) < 0.01)
        #expect(box.maxX - box.minX < 20, "a nearly north–south route stays narrow: \(box)")
    }

    @Test func northIsUpAndTheStartIsTheFirstPoint() {
        // Heading north-east: the end is above (smaller y) and right of the start.
        let placed = RouteMap.place([line(52.50, 13.40, 52.51, 13.41)])
        let track = placed.tracks[0]
        #expect(track.last!.y < track.first!.y && track.last!.x > track.first!.x)
    }

    @Test func aRouteThatDoesNotMoveSitsInTheMiddle() {
        let placed = RouteMap.place([[ReportData.RoutePoint(latitude: 48.85, longitude: 2.35)]])
        #expect(placed.tracks[0].count == 1)
        #expect(abs(placed.tracks[0][0].x - RouteMap.width / 2) < 0.01 && abs(placed.tracks[0][0].y - RouteMap.height / 2) < 0.01)
    }

    @Test func pointsAtThePolesAndTheEdgesOfTheMapStayFinite() {
        let placed = RouteMap.place([[.init(latitude: 90, longitude: -180), .init(latitude: -90, longitude: 180)]])
        #expect(placed.tracks[0].allSatisfy { $0.x.isFinite && $0.y.isFinite })
        let box = bounds(placed)
        #expect(box.minX >= 0 && box.maxX <= RouteMap.width && box.minY >= 0 && box.maxY <= RouteMap.height)
    }

    @Test func colourFollowsTheActivity() {
        let route = [line(52.50, 13.40, 52.51, 13.41)]
        let walk = RouteMap.svg("w", title: "walk", routes: route, kind: .walk)
        let run = RouteMap.svg("r", title: "run", routes: route, kind: .run)
        #expect(walk.contains("stroke=\"\(ReportData.RouteKind.walk.colour)\"") && walk.contains("data-activity=\"walk\""))
        #expect(run.contains("stroke=\"\(ReportData.RouteKind.run.colour)\"") && run.contains("data-activity=\"run\""))
        #expect(ReportData.RouteKind.walk.colour != ReportData.RouteKind.run.colour)
        #expect(Set(ReportData.RouteKind.allCases.map(\.colour)).count == ReportData.RouteKind.allCases.count, "one colour per kind")
    }

    @Test func startAndEndMarkersSitOnTheRoutesEnds() throws {
        let routes = [line(52.50, 13.40, 52.51, 13.41), line(52.51, 13.41, 52.50, 13.43)]
        let svg = RouteMap.svg("w", title: "t", routes: routes, kind: .run)
        let placed = RouteMap.place(routes)
        let start = try #require(placed.tracks.first?.first), end = try #require(placed.tracks.last?.last)
        #expect(svg.contains("<circle class=\"start\" cx=\"\(String(format: "%.1f", start.x))\" cy=\"\(String(format: "%.1f", start.y))\""))
        #expect(svg.contains("<circle class=\"end\" cx=\"\(String(format: "%.1f", end.x))\" cy=\"\(String(format: "%.1f", end.y))\""))
        #expect(svg.components(separatedBy: "<polyline class=\"route\"").count - 1 == 2, "one polyline per route")
    }

    @Test func longRoutesAreThinnedKeepingTheirEnds() {
        let long = line(52.50, 13.40, 52.60, 13.50, count: 10_800)
        let thinned = RouteMap.thinned(long)
        #expect(thinned.count == RouteMap.maxDrawnPoints)
        #expect(thinned.first == long.first && thinned.last == long.last)
        #expect(RouteMap.thinned(Array(long.prefix(100))).count == 100, "short routes are drawn whole")
    }

    @Test func theScaleBarIsARoundLength() {
        // About 1.1 km north–south: the bar reads a round number of metres or kilometres.
        let svg = RouteMap.svg("w", title: "t", routes: [line(52.50, 13.40, 52.51, 13.40)], kind: .walk)
        let label = svg.firstMatch(of: /font-size="10">([0-9.]+ k?m)</)?.output.1
        #expect(["100 m", "200 m", "500 m"].contains(label.map(String.init) ?? ""), "\(String(describing: label))")
    }

    @Test func theReportHasOneMapPerWorkoutWithARouteAndAKeyOfItsColours() {
        let route = line(52.50, 13.40, 52.51, 13.41)
        // Whole routes: this is about the maps and their key (hidden ends: `RouteEndsTests`).
        var data = ReportData(title: "t", period: "p", generated: "g", workouts: [
            .init(start: "a", activity: "Walking", minutes: 30, distanceKilometres: 2, energyKilocalories: nil, source: "s", kind: .walk, routes: [route]),
            .init(start: "b", activity: "Running", minutes: 30, distanceKilometres: 5, energyKilocalories: nil, source: "s", kind: .run, routes: [route]),
            .init(start: "c", activity: "Yoga", minutes: 30, distanceKilometres: nil, energyKilocalories: nil, source: "s"),
        ])
        data.routeDisplay = .full
        let page = HealthReportRenderer.html(data)
        #expect(page.components(separatedBy: "<svg class=\"map\"").count - 1 == 2)
        #expect(page.contains("background:\(ReportData.RouteKind.walk.colour)") && page.contains("background:\(ReportData.RouteKind.run.colour)"))
        #expect(!page.contains("background:\(ReportData.RouteKind.other.colour)"), "the key lists only the kinds shown")
        #expect(!HealthReportRenderer.html(ReportData(title: "t", period: "p", generated: "g")).contains("<svg class=\"map\""))
    }
}
