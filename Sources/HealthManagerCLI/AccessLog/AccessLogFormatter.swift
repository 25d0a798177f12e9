import Foundation
import HealthModel

/// How `healthctl log` shows entries: a table in the user's time zone with readable type
/// names, or one JSON object per line (UTC, type identifiers as stored).
struct AccessLogFormatter {
    let timeZone: TimeZone

    static let tableColumns: [TextTable.Column] = [
        .init("#", .right), .init("TIME"), .init("ACTOR"), .init("ACTION"), .init("TYPES"), .init("COUNT", .right),
        .init("DETAIL"),
    ]

    func tableRow(_ entry: AccessLogEntry) -> [String] {
        let types = entry.types.map(TypeDisplayName.words(of:)).joined(separator: ", ")
        var detail = entry.detail
        // The app an entry is about, unless it is the actor itself. An entry whose app bears a
        // non-app actor's name (`manager`: an app an older version installed under it, whose rows
        // the hash chain keeps) names it too, so its reads do not read as the user's own (redteam23 F1).
        if let app = entry.appID, app != entry.actor || NonAppActor(rawValue: app) != nil {
            detail = detail.isEmpty ? app : "\(app): \(detail)"
        }
        return [String(entry.sequence), SampleFormatter(displayUnit: nil, timeZone: timeZone).localTime(entry.date),
                entry.actor, entry.action, types, String(entry.count), detail]
    }

    func jsonLine(_ entry: AccessLogEntry) -> String {
        let line = JSONLine(sequence: entry.sequence, time: SampleJSONLine.timestamp(entry.date), actor: entry.actor,
                            app: entry.appID, action: entry.action, types: entry.types, count: entry.count,
                            detail: entry.detail)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, number or array of strings: encoding cannot fail.
        return String(decoding: (try? encoder.encode(line)) ?? Data("{}".utf8), as: UTF8.self)
    }

    private struct JSONLine: Encodable {
        let sequence: Int64
        let time: String
        let actor: String
        let app: String?
        let action: String
        let types: [String]
        let count: Int
        let detail: String
    }
}
