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
        rows[type, default: Row()].refused[reason, default: 0] += 1
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
