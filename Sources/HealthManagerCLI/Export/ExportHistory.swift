public import Foundation
import HealthModel

/// The last finished export (when, where, how many samples), kept so `healthctl status` can
/// remind the user how old their newest copy is. Stored in
/// `$XDG_STATE_HOME/openhealth/last-export.json` (else `~/.local/state/…`), mode 0600: it names a
/// path and a count, never health values. healthctl keeps it, not healthd — it is a fact about
/// the user's files, not about the store.
public struct ExportHistory: Codable, Equatable, Sendable {
    public var date: Date
    public var path: String
    public var format: String
    public var samples: Int

    public init(date: Date, path: String, format: String, samples: Int) {
        self.date = date
        self.path = path
        self.format = format
        self.samples = samples
    }

    public static func file(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state").path
        return URL(fileURLWithPath: base).appendingPathComponent("openhealth/last-export.json")
    }

    /// The last export recorded, or nil when none was (or the record is unreadable).
    public static func last(environment: [String: String] = ProcessInfo.processInfo.environment) -> ExportHistory? {
        guard let data = try? Data(contentsOf: file(environment: environment)) else { return nil }
        let decoder = JSONDecoder()
        // The encoder's `.iso8601` form, read by the one hand-written parser of ISO 8601 text.
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = ISO8601DateTime.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 date"))
            }
            return date
        }
        return try? decoder.decode(ExportHistory.self, from: data)
    }

    /// Records this export. Failing to is reported by the caller but does not undo the export.
    public func save(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let url = Self.file(environment: environment)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}
