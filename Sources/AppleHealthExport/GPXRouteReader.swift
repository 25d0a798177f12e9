import Foundation
import HealthModel
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the track points of a route GPX file as Apple Health writes them under
/// `workout-routes/` (`<trkpt lat lon><ele/><time/><extensions><speed/><course/><hAcc/><vAcc/>`),
/// with Foundation's `XMLParser`. A point without a time, or with coordinates that are not
/// numbers, makes the file invalid rather than being dropped.
final class GPXRouteReader: NSObject, XMLParserDelegate {
    /// The largest route file read: a route holds at most `SampleLimits.maximumRouteLocations`
    /// (200,000) points, and Apple's point with its extensions takes about 300 bytes; 128 MiB leaves
    /// room for wide whitespace and long numbers without letting one file take the machine's memory.
    static let maximumFileBytes = 128 << 20

    private let fileName: String
    private(set) var locations: [ExportLocation] = []
    private var point: (latitude: Double, longitude: Double, fields: [String: String], line: Int)?
    private var text = ""
    private var failure: ExportReadError?

    init(fileName: String) {
        self.fileName = fileName
    }

    static func read(_ data: Data, fileName: String) throws(ExportReadError) -> [ExportLocation] {
        let reader = GPXRouteReader(fileName: fileName)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        let finished = parser.parse()
        if let failure = reader.failure { throw failure }
        guard finished else {
            throw .malformed(file: fileName, line: parser.lineNumber, column: parser.columnNumber,
                             reason: parser.parserError.map { "\($0)" } ?? "the parser stopped")
        }
        return reader.locations
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        text = ""
        guard name == "trkpt" else { return }
        guard let latitude = attributes["lat"].flatMap(Double.init), latitude.isFinite,
              let longitude = attributes["lon"].flatMap(Double.init), longitude.isFinite else {
            return fail(parser, "a <trkpt> needs numeric lat and lon")
        }
        point = (latitude, longitude, [:], parser.lineNumber)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if point != nil { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard let current = point else { return }
        switch name {
        case "ele", "time", "speed", "course", "hAcc", "vAcc":
            point?.fields[name] = text.trimmingCharacters(in: .whitespacesAndNewlines)
        case "trkpt":
            point = nil
            // Read by hand (`ISO8601DateTime`): ICU's formatter traps on a long fraction.
            guard let timeText = current.fields["time"], let date = ISO8601DateTime.parse(timeText) else {
                return fail(parser, "a <trkpt> needs a <time> in ISO 8601 form (YYYY-MM-DDTHH:MM:SS, up to 9 fraction digits, Z or ±HH:MM)", line: current.line)
            }
            func number(_ key: String) -> Double? { current.fields[key].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil } }
            locations.append(ExportLocation(date: date, latitude: current.latitude, longitude: current.longitude,
                                            altitude: number("ele"), horizontalAccuracy: number("hAcc"),
                                            verticalAccuracy: number("vAcc"), course: number("course"), speed: number("speed")))
        default:
            break
        }
        text = ""
    }

    private func fail(_ parser: XMLParser, _ reason: String, line: Int? = nil) {
        if failure == nil {
            failure = .invalidElement(file: fileName, element: "trkpt", line: line ?? parser.lineNumber, reason: reason)
        }
        parser.abortParsing()
    }
}
