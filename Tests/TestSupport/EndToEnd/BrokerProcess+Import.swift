public import Foundation

/// Samples brought in the trusted way, as `healthctl import` of an Apple Health export: the
/// path for types no app may save (`AppWritability`: appleExerciseTime, appleStandHour, …),
/// which reach the store only from the system or the user. They are stored under the source
/// `@import/Apple Health/<sourceName>`.
extension BrokerProcess {
    /// One `<Record>` of an export: a quantity (`value` a number, `unit` set) or a category
    /// sample (`value` the raw value or Apple's `HKCategoryValue…` spelling, no unit).
    public struct ExportRecord: Sendable {
        public var type: String
        public var value: String
        public var unit: String?
        public var start: Date
        public var end: Date
        public var sourceName: String

        public init(_ type: String, _ value: String, unit: String? = nil, from start: Date, to end: Date,
                    sourceName: String = "Watch") {
            self.type = type
            self.value = value
            self.unit = unit
            self.start = start
            self.end = end
            self.sourceName = sourceName
        }
    }

    /// Writes `records` as an export.xml and imports it with healthctl, failing on error.
    public func importRecords(_ records: [ExportRecord]) async throws {
        let path = root + "/import-\(UUID().uuidString.prefix(8)).xml"
        try Self.exportXML(records).write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await healthctl(["import", path])
        guard result.status == 0, result.stdout.contains(" 0 refused") else { throw CommandFailed(result: result) }
    }

    /// Apple's export format: `yyyy-MM-dd HH:mm:ss +0000` dates, one element per record.
    static func exportXML(_ records: [ExportRecord]) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss '+0000'"
        let lines = records.map { record in
            let unit = record.unit.map { " unit=\"\($0)\"" } ?? ""
            return "  <Record type=\"\(record.type)\" sourceName=\"\(record.sourceName)\"\(unit)"
                + " startDate=\"\(formatter.string(from: record.start))\" endDate=\"\(formatter.string(from: record.end))\""
                + " value=\"\(record.value)\"/>"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n" + lines.joined(separator: "\n")
            + "\n</HealthData>\n"
    }
}
