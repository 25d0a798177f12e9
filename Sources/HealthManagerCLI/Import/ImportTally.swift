import Foundation

/// What an import did, per type: added, already there, refused (with each reason and how often).
struct ImportTally: Sendable {
    struct Row: Sendable {
        var added = 0
        var unchanged = 0
        var refused: [String: Int] = [:]
    }

    private(set) var rows: [String: Row] = [:]
    /// Elements read but not imported as samples (activity summaries, routes, clinical records, …),
    /// with why.
    private(set) var notImported: [String: (count: Int, reason: String)] = [:]
    private(set) var read = 0

    mutating func countRead() { read += 1 }

    mutating func refused(_ type: String, _ reason: String) {
        rows[type, default: Row()].refused[Self.summarized(reason, type: type), default: 0] += 1
    }

    /// A refusal reason as one summary line counts it: without the type the row already names,
    /// and without the refused value, so a thousand out-of-range values are one reason.
    static func summarized(_ reason: String, type: String) -> String {
        var text = reason
        if text.hasPrefix(type + ": ") { text.removeFirst(type.count + 2) }
        return text.replacingOccurrences(of: #"value \S+ \S+ is outside"#, with: "value is outside", options: .regularExpression)
    }

    mutating func stored(_ type: String, added: Int, unchanged: Int) {
        rows[type, default: Row()].added += added
        rows[type, default: Row()].unchanged += unchanged
    }

    mutating func notImported(_ what: String, count: Int = 1, reason: String) {
        notImported[what, default: (0, reason)].count += count
    }

    var added: Int { rows.values.reduce(0) { $0 + $1.added } }
    var unchanged: Int { rows.values.reduce(0) { $0 + $1.unchanged } }
    var refusedCount: Int { rows.values.reduce(0) { $0 + $1.refused.values.reduce(0, +) } }

    /// The summary table, one line per type (by name), then what was left out and why.
    func rendered(emphasize: (String) -> String) -> String {
        var table = TextTable([.init("TYPE"), .init("IMPORTED", .right), .init("ALREADY THERE", .right),
                               .init("REFUSED", .right), .init("WHY REFUSED")])
        for (type, row) in rows.sorted(by: { TypeDisplayName.words(of: $0.key) < TypeDisplayName.words(of: $1.key) }) {
            let reasons = row.refused.sorted { $0.value > $1.value }.map { "\($0.key) (\($0.value))" }
            table.append([TypeDisplayName.words(of: type), "\(row.added)", "\(row.unchanged)",
                          "\(row.refused.values.reduce(0, +))", reasons.joined(separator: "; ")])
        }
        var text = table.rendered(emphasize: emphasize)
        for (what, entry) in notImported.sorted(by: { $0.key < $1.key }) {
            text += "not imported: \(entry.count) \(what) — \(entry.reason)\n"
        }
        return text
    }
}
