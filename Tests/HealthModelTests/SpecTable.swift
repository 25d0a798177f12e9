import Foundation

/// Reads one of the reference tables in spec/healthkit (tab-separated, header row): the
/// repository's copy of ../shared/spec/healthkit, kept equal by scripts/sync-spec.sh.
/// Tests check the model against these tables so the registry cannot drift from HealthKit.
enum SpecTable {
    static var directory: URL {
        // Tests/HealthModelTests/SpecTable.swift -> repository root -> spec/healthkit
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("spec/healthkit")
    }

    static func load(_ name: String) throws -> [[String: String]] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard let header = lines.first else { return [] }
        let columns = header.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            var row: [String: String] = [:]
            for (index, column) in columns.enumerated() {
                row[column] = index < cells.count ? cells[index] : ""
            }
            return row
        }
    }
}
