public import Foundation
public import HealthModel

/// Writes a workout route as the GPX file Apple Health puts under `workout-routes/`
/// (`<trkpt lat lon><ele/><time/><extensions><speed/><course/><hAcc/><vAcc/>`), which
/// `GPXRouteReader` and mapping tools read. Every field of a location is written, unknown ones
/// with CoreLocation's negative "unknown", so reading the file back gives the same locations.
/// Times are UTC, with milliseconds when not whole seconds.
public enum GPXRouteWriter {
    /// The whole file: a route has at most `SampleLimits.maximumRouteLocations` points.
    public static func gpx(_ locations: [RouteLocation], name: String) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="OpenHealthKit" xmlns="http://www.topografix.com/GPX/1/1">
             <trk>
              <name>\(ExportXMLText.escaped(name))</name>
              <trkseg>

            """
        text.reserveCapacity(text.utf8.count + locations.count * 240)
        for location in locations {
            text += "   <trkpt lon=\"\(ExportXMLText.number(location.longitude))\" lat=\"\(ExportXMLText.number(location.latitude))\">"
            text += "<ele>\(ExportXMLText.number(location.altitude))</ele><time>\(time(location.timestamp))</time>"
            text += "<extensions><speed>\(ExportXMLText.number(location.speed))</speed>"
            text += "<course>\(ExportXMLText.number(location.course))</course>"
            text += "<hAcc>\(ExportXMLText.number(location.horizontalAccuracy))</hAcc>"
            text += "<vAcc>\(ExportXMLText.number(location.verticalAccuracy))</vAcc></extensions></trkpt>\n"
        }
        return text + "  </trkseg>\n </trk>\n</gpx>\n"
    }

    /// `route_2024-05-01_8.30am.gpx`-like, made unique by the route's UUID prefix.
    public static func fileName(start: Date, uuid: UUID, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: start)
        let hour = parts.hour ?? 0
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        let stamp = String(format: "%04d-%02d-%02d_%d.%02d%@", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                           twelve, parts.minute ?? 0, hour < 12 ? "am" : "pm")
        return "route_\(stamp)_\(uuid.uuidString.prefix(8).lowercased()).gpx"
    }

    private static func time(_ date: Date) -> String {
        let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole, timeZone: .gmt))
    }
}
