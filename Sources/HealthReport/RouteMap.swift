import Foundation

/// A workout's route drawn the way workout apps draw it, as inline SVG with nothing to load: the
/// track on a plain map canvas (no tiles — the report opens offline and leaks no location to a
/// tile server), green for walks, red for runs (`ReportData.RouteKind` names every colour), a
/// green start and a black end marker when the whole route is drawn (`markEnds`; not when its
/// ends are hidden: `RouteEnds`), a scale bar, and the view fitted to what is drawn with its
/// aspect kept.
///
/// The projection is Web Mercator, as map apps use, so a route has the shape it has on their
/// maps. The fit works in projected units: the larger of the route's width and height fills the
/// canvas less its margin and the other is centred, so a north–south route is not stretched
/// sideways. A route crossing the antimeridian (±180°) is drawn the long way round.
enum RouteMap {
    static let width = 360.0
    static let height = 240.0
    static let margin = 16.0
    /// Points drawn per route at most: a 3-hour ride logged every second is 10,800 points, which
    /// adds half a megabyte of SVG and nothing visible at this size.
    static let maxDrawnPoints = 1_500
    private static let earthRadius = 6_378_137.0

    /// Canvas coordinates of a route's points (every route of one workout shares one fit).
    struct Placed {
        var tracks: [[(x: Double, y: Double)]]
        /// Metres one canvas unit covers at the route's middle latitude.
        var metresPerUnit: Double
    }

    static func svg(_ name: String, title: String, routes: [[ReportData.RoutePoint]], kind: ReportData.RouteKind,
                    markEnds: Bool = true) -> String {
        let placed = place(routes.map(thinned))
        var body = "<rect class=\"canvas\" x=\"0\" y=\"0\" width=\"\(format(width))\" height=\"\(format(height))\" fill=\"#eef1ec\"/>"
        body += grid
        for track in placed.tracks where !track.isEmpty {
            let points = track.map { "\(format($0.x)),\(format($0.y))" }.joined(separator: " ")
            body += "<polyline class=\"route\" data-activity=\"\(kind.rawValue)\" fill=\"none\" stroke=\"\(kind.colour)\" "
                + "stroke-width=\"3\" stroke-linejoin=\"round\" stroke-linecap=\"round\" points=\"\(points)\"/>"
        }
        if markEnds, let first = placed.tracks.first(where: { !$0.isEmpty })?.first {
            body += "<circle class=\"start\" cx=\"\(format(first.x))\" cy=\"\(format(first.y))\" r=\"5\" fill=\"#1a7f37\" stroke=\"#fff\" stroke-width=\"2\"><title>Start</title></circle>"
        }
        if markEnds, let last = placed.tracks.last(where: { !$0.isEmpty })?.last {
            body += "<circle class=\"end\" cx=\"\(format(last.x))\" cy=\"\(format(last.y))\" r=\"5\" fill=\"#111\" stroke=\"#fff\" stroke-width=\"2\"><title>End</title></circle>"
        }
        body += scaleBar(metresPerUnit: placed.metresPerUnit)
        return "<svg class=\"map\" data-route=\"\(SVGChart.escaped(name))\" xmlns=\"http://www.w3.org/2000/svg\" "
            + "viewBox=\"0 0 \(format(width)) \(format(height))\" role=\"img\"><title>\(SVGChart.escaped(title))</title>" + body + "</svg>"
    }

    /// Projects and fits every route of one workout into the canvas less its margin.
    static func place(_ routes: [[ReportData.RoutePoint]]) -> Placed {
        let projected = routes.map { $0.map(project) }
        let all = projected.joined()
        guard let minX = all.map(\.x).min(), let maxX = all.map(\.x).max(),
              let minY = all.map(\.y).min(), let maxY = all.map(\.y).max() else {
            return Placed(tracks: routes.map { _ in [] }, metresPerUnit: 0)
        }
        let spanX = maxX - minX, spanY = maxY - minY
        let room = (x: width - 2 * margin, y: height - 2 * margin)
        // A route that does not move (one point, or a treadmill's GPS jitter at one spot) gets a
        // scale of one unit per 10 m and sits in the middle.
        let scale = max(spanX, spanY) > 0 ? min(spanX > 0 ? room.x / spanX : .infinity, spanY > 0 ? room.y / spanY : .infinity)
            : 1 / (10 / earthRadius)
        let offsetX = margin + (room.x - spanX * scale) / 2
        let offsetY = margin + (room.y - spanY * scale) / 2
        let tracks = projected.map { track in
            // SVG's y grows downwards; Mercator's northwards.
            track.map { (x: offsetX + ($0.x - minX) * scale, y: offsetY + (maxY - $0.y) * scale) }
        }
        let middleLatitude = atan(sinh((minY + maxY) / 2))
        return Placed(tracks: tracks, metresPerUnit: earthRadius * cos(middleLatitude) / scale)
    }

    /// Web Mercator in radians (x = longitude, y = ln tan(π/4 + φ/2)); latitudes clamped to
    /// the projection's ±85.05° so a bad point cannot make an infinite coordinate.
    static func project(_ point: ReportData.RoutePoint) -> (x: Double, y: Double) {
        let latitude = min(max(point.latitude, -85.05112878), 85.05112878) * .pi / 180
        return (x: point.longitude * .pi / 180, y: log(tan(.pi / 4 + latitude / 2)))
    }

    /// At most `maxDrawnPoints` of a route, evenly spaced, always with its first and last.
    static func thinned(_ route: [ReportData.RoutePoint]) -> [ReportData.RoutePoint] {
        guard route.count > maxDrawnPoints else { return route }
        let step = Double(route.count - 1) / Double(maxDrawnPoints - 1)
        return (0..<maxDrawnPoints).map { route[Int((Double($0) * step).rounded())] }
    }

    private static let grid: String = {
        var lines = ""
        for x in stride(from: 40.0, to: width, by: 40) {
            lines += "<line class=\"grid\" x1=\"\(format(x))\" y1=\"0\" x2=\"\(format(x))\" y2=\"\(format(height))\" stroke=\"#dde3db\"/>"
        }
        for y in stride(from: 40.0, to: height, by: 40) {
            lines += "<line class=\"grid\" x1=\"0\" y1=\"\(format(y))\" x2=\"\(format(width))\" y2=\"\(format(y))\" stroke=\"#dde3db\"/>"
        }
        return lines
    }()

    /// A bar of a round length (1, 2 or 5 × 10ⁿ metres) no longer than a quarter of the canvas.
    private static func scaleBar(metresPerUnit: Double) -> String {
        guard metresPerUnit.isFinite, metresPerUnit > 0 else { return "" }
        let most = width / 4 * metresPerUnit
        let power = pow(10, log10(most).rounded(.down))
        let metres = [5.0, 2, 1].map { $0 * power }.first { $0 <= most } ?? power
        let length = metres / metresPerUnit
        let label = metres >= 1000 ? "\(SVGChart.number(metres / 1000)) km" : "\(SVGChart.number(metres)) m"
        let y = height - 8
        return "<g class=\"scale\"><line x1=\"8\" y1=\"\(format(y))\" x2=\"\(format(8 + length))\" y2=\"\(format(y))\" stroke=\"#333\" stroke-width=\"2\"/>"
            + "<text x=\"\(format(12 + length))\" y=\"\(format(y + 4))\" font-size=\"10\">\(label)</text></g>"
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
