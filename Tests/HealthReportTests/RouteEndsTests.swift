@testable import HealthReport
import Foundation
import Testing

/// `healthctl report`'s default route drawing (`RouteDisplay.hiddenEnds`): a report handed to a
/// clinician must not show where its author's workouts begin and end — usually their front door.
/// Strava's privacy zones hide the part of an activity that starts or ends within a radius of
/// a private address, and move that zone at random because a zone centred on the address puts
/// every hidden route's first shown point on one circle around it
/// (https://support.strava.com/hc/en-us/articles/115000173384-Privacy-Zones). Before this, every
/// route was drawn whole with its start and end marked (storage review, session 18).
@Suite(.timeLimit(.minutes(10))) struct RouteEndsTests {
    static let home = ReportData.RoutePoint(latitude: 52.5145, longitude: 13.3501)

    /// `metres` from `origin` towards `bearing` (radians from north), in `count` evenly spaced points.
    static func leg(from origin: ReportData.RoutePoint, bearing: Double, metres: Double, count: Int) -> [ReportData.RoutePoint] {
        (0..<count).map { index in
            let distance = metres * Double(index) / Double(count - 1)
            let north = distance * cos(bearing) / 111_195, east = distance * sin(bearing) / (111_195 * cos(origin.latitude * .pi / 180))
            return ReportData.RoutePoint(latitude: origin.latitude + north, longitude: origin.longitude + east)
        }
    }

    /// Workouts that start or end at home, each a different shape.
    static let shapes: [(name: String, routes: [[ReportData.RoutePoint]])] = {
        let out = leg(from: home, bearing: 1.0, metres: 4_000, count: 800)
        let far = out.last ?? home
        let other = leg(from: home, bearing: 1.0 + .pi, metres: 4_000, count: 800)
        return [
            ("out and back", [out + out.reversed()]),
            ("one way from home", [out]),
            ("one way to home", [leg(from: far, bearing: 1.0 + .pi, metres: 4_000, count: 800)]),
            ("passes home halfway", [out + out.reversed() + other + other.reversed()]),
            ("paused twice", [Array(out.prefix(300)), Array(out.dropFirst(300).prefix(300)), Array(out.dropFirst(600)) + out.reversed()]),
        ]
    }()

    @Test(arguments: shapes.map(\.name))
    func noDrawnPointLiesNearTheStartTheEndOrHome(shape: String) throws {
        let routes = try #require(Self.shapes.first { $0.name == shape }?.routes)
        let start = try #require(routes.first?.first), end = try #require(routes.last?.last)
        let nearest = RouteEnds.radius - RouteEnds.maxOffset
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let drawn = RouteEnds.hidden(routes, using: &random)
            #expect(!drawn.isEmpty, "a 4 km route keeps its middle")
            for point in drawn.joined() {
                for (name, place) in [("start", start), ("end", end), ("home", Self.home)] where RouteEnds.distance(place, point) < nearest {
                    Issue.record("\(shape): a drawn point \(RouteEnds.distance(place, point)) m from the \(name)")
                    return
                }
            }
        }
    }

    /// The first drawn point of fifty workouts from one door, in fifty directions: with a zone
    /// centred on the door they would all lie about `radius` from it, and any three would find it.
    @Test func theFirstDrawnPointsOfManyWorkoutsFromOneDoorDoNotLieOnOneCircle() throws {
        var random = SystemRandomNumberGenerator()
        let distances = try (0..<50).map { index in
            let route = Self.leg(from: Self.home, bearing: Double(index) / 50 * 2 * .pi, metres: 3_000, count: 1_500)
            let first = try #require(RouteEnds.hidden([route], using: &random).first?.first)
            return RouteEnds.distance(Self.home, first)
        }
        let spread = (distances.max() ?? 0) - (distances.min() ?? 0)
        #expect(spread > RouteEnds.maxOffset, "first drawn points \(distances.min() ?? 0)–\(distances.max() ?? 0) m from the door")
    }

    @Test func pointsFarFromBothEndsAreAlwaysDrawn() throws {
        let route = Self.leg(from: Self.home, bearing: 2.0, metres: 5_000, count: 1_000)
        let end = try #require(route.last)
        let far = route.filter { point in
            [Self.home, end].allSatisfy { RouteEnds.distance($0, point) > RouteEnds.radius + RouteEnds.maxOffset + 1 }
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let drawn = Set(RouteEnds.hidden([route], using: &random).joined().map { "\($0.latitude),\($0.longitude)" })
            #expect(far.allSatisfy { drawn.contains("\($0.latitude),\($0.longitude)") })
        }
    }

    @Test func aWorkoutThatStaysNearHomeDrawsNothing() {
        // A 200 m square around the block.
        let block = Self.leg(from: Self.home, bearing: 0, metres: 200, count: 20) + Self.leg(from: Self.home, bearing: .pi / 2, metres: 200, count: 20)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<50 { #expect(RouteEnds.hidden([block], using: &random).isEmpty) }
        #expect(RouteEnds.hidden([], using: &random).isEmpty && RouteEnds.hidden([[], []], using: &random).isEmpty)
    }

    /// Extremes: the poles, the antimeridian, NaN and infinite coordinates never produce a
    /// non-finite point, and an unplaceable point is hidden rather than drawn.
    @Test(arguments: [(89.9999, 0.0), (-89.9999, 179.9999), (0.0, -180.0), (Double.nan, 0.0), (0.0, Double.infinity)])
    func extremeCoordinatesStayFiniteOrHidden(latitude: Double, longitude: Double) {
        let odd = ReportData.RoutePoint(latitude: latitude, longitude: longitude)
        var random = SystemRandomNumberGenerator()
        let moved = RouteEnds.moved(odd, using: &random)
        if latitude.isFinite && longitude.isFinite { #expect(moved.latitude.isFinite && moved.longitude.isFinite) }
        let route = Self.leg(from: Self.home, bearing: 1, metres: 3_000, count: 300)
        let drawn = RouteEnds.hidden([route + [odd] + route.reversed()], using: &random).joined()
        if !(latitude.isFinite && longitude.isFinite) { #expect(!drawn.contains { !$0.latitude.isFinite || !$0.longitude.isFinite }) }
    }

    func report(_ display: RouteDisplay) -> String {
        let route = Self.leg(from: Self.home, bearing: 1, metres: 4_000, count: 400)
        var data = ReportData(title: "t", period: "p", generated: "g", workouts: [
            .init(start: "a", activity: "Running", minutes: 30, distanceKilometres: 8, energyKilocalories: nil, source: "s", kind: .run,
                  routes: [route + route.reversed()]),
        ])
        data.routeDisplay = display
        return HealthReportRenderer.html(data)
    }

    @Test func byDefaultTheReportMarksNoStartOrEndAndSaysWhatItHides() {
        let page = report(.hiddenEnds)
        #expect(page.components(separatedBy: "<svg class=\"map\"").count - 1 == 1)
        #expect(!page.contains("<circle class=\"start\"") && !page.contains("<circle class=\"end\""), "no marker says where it began")
        #expect(page.contains("--routes full"), "the page says how to draw whole routes")
        #expect(ReportData(title: "t", period: "p", generated: "g").routeDisplay == .hiddenEnds)
    }

    @Test func fullDrawsTheWholeRouteWithItsEndsMarked() {
        let page = report(.full)
        #expect(page.contains("<circle class=\"start\"") && page.contains("<circle class=\"end\""))
    }

    @Test func noneDrawsNoMapAndSaysSo() {
        let page = report(.none)
        #expect(!page.contains("<svg class=\"map\"") && !page.contains("<polyline class=\"route\""))
        #expect(page.contains("left out"))
    }
}
