import Foundation

/// How a report draws workout routes. A report is made to be handed to someone (a clinician, a
/// coach), and a route that starts and ends at the front door says where the user lives, so
/// the default leaves the area around each route's start and end out (`hiddenEnds`), as
/// Strava's privacy zones and its "hide start and end" do; drawing everything is a choice.
public enum RouteDisplay: String, Sendable, CaseIterable {
    /// Every point outside two hidden areas is drawn, without start or end markers
    /// (`RouteEnds.hidden`).
    case hiddenEnds = "hidden-ends"
    /// Every point, start and end marked: for a report the user keeps.
    case full
    /// No maps at all.
    case none
}

/// The hidden areas of `RouteDisplay.hiddenEnds`: a disk of `radius` around a workout's start
/// and one around its end, each centre moved from the true point by up to `maxOffset` in a
/// random direction, fresh for every workout and every report. Every point inside either disk
/// is left out, wherever in the workout it falls (a run that passes the front door halfway is
/// hidden there too), and no line is drawn into a disk: a drawn piece starts at the first
/// recorded point outside it, not on its edge.
///
/// Why the moved centre: with disks centred on the true start, the first drawn point of every
/// workout from home lies on one circle around it, and three workouts find its centre (the
/// known attack on fixed privacy zones, which Strava answers by moving the zone at random). Here
/// a drawn point is at least `radius − maxOffset` (250 m) from the true start and end, and the
/// first drawn points of many workouts lie between 250 m and 750 m from them, not on one circle.
/// Many workouts from one door still narrow it to a neighbourhood: `RouteDisplay.none` leaves
/// maps out.
public enum RouteEnds {
    public static let radius = 500.0
    public static let maxOffset = 250.0
    private static let earthRadius = 6_371_008.8

    /// The pieces of `routes` (one workout's, in time order) that lie outside both hidden areas;
    /// empty when the whole workout stays inside them.
    public static func hidden(_ routes: [[ReportData.RoutePoint]], using random: inout some RandomNumberGenerator) -> [[ReportData.RoutePoint]] {
        guard let start = routes.first(where: { !$0.isEmpty })?.first, let end = routes.last(where: { !$0.isEmpty })?.last else { return [] }
        let centres = [moved(start, using: &random), moved(end, using: &random)]
        var pieces: [[ReportData.RoutePoint]] = []
        for route in routes {
            var piece: [ReportData.RoutePoint] = []
            for point in route {
                // A point that is not a place is hidden too: nothing unplaceable is drawn.
                let outside = point.latitude.isFinite && point.longitude.isFinite && centres.allSatisfy { centre in
                    let metres = distance(centre, point)
                    return metres.isFinite && metres >= radius
                }
                if outside {
                    piece.append(point)
                } else if !piece.isEmpty {
                    pieces.append(piece)
                    piece = []
                }
            }
            if !piece.isEmpty { pieces.append(piece) }
        }
        return pieces
    }

    /// `point` moved up to `maxOffset` metres in a random direction, uniformly over the disk.
    static func moved(_ point: ReportData.RoutePoint, using random: inout some RandomNumberGenerator) -> ReportData.RoutePoint {
        let metres = maxOffset * Double.random(in: 0...1, using: &random).squareRoot()
        let bearing = Double.random(in: 0..<(2 * .pi), using: &random)
        let latitude = point.latitude * .pi / 180
        let north = metres * cos(bearing) / earthRadius * 180 / .pi
        // Near a pole the east–west step grows without bound; the latitude clamp keeps it finite.
        let east = metres * sin(bearing) / (earthRadius * max(cos(latitude), 1e-6)) * 180 / .pi
        return ReportData.RoutePoint(latitude: point.latitude + north, longitude: point.longitude + east)
    }

    /// Great-circle distance in metres (haversine).
    static func distance(_ a: ReportData.RoutePoint, _ b: ReportData.RoutePoint) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δφ = φ2 - φ1, Δλ = (b.longitude - a.longitude) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        // `min(1, .nan)` is 1: a NaN must stay NaN, not become half the globe.
        guard h.isFinite else { return .nan }
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }
}
