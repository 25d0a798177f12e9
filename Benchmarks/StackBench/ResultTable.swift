import Foundation

/// The printed table: each figure beside its limit, their ratio, and the goal.
struct ResultTable {
    enum Goal {
        /// Throughput: figure ÷ limit must reach this.
        case atLeast(Double)
        /// Time: figure ÷ limit must stay at or under this.
        case atMostTimes(Double)
        case none
    }

    private var rows: [String] = []

    mutating func add(_ what: String, figure: Double, unit: String, limit: Double, limitName: String, goal: Goal) {
        let ratio = figure / limit
        let verdict: String
        switch goal {
        case .atLeast(let wanted): verdict = String(format: "≥ %.2f× limit: %@", wanted, ratio >= wanted ? "met" : "NOT MET")
        case .atMostTimes(let wanted): verdict = String(format: "≤ %.1f× limit: %@", wanted, ratio <= wanted ? "met" : "NOT MET")
        case .none: verdict = "—"
        }
        rows.append("| \(what) | \(Self.format(figure)) \(unit) | \(limitName): \(Self.format(limit)) \(unit) | \(String(format: "%.2f", ratio))× | \(verdict) |")
        Swift.print(rows[rows.count - 1])
    }

    func print() {
        Swift.print("\n| what | full stack | limit (same run) | figure ÷ limit | goal |")
        Swift.print("| --- | ---: | --- | ---: | --- |")
        rows.forEach { Swift.print($0) }
    }

    static func format(_ value: Double) -> String {
        if value >= 1_000 {
            let formatter = NumberFormatter()
            formatter.numberStyle = .decimal
            formatter.maximumFractionDigits = 0
            return formatter.string(from: NSNumber(value: value)) ?? String(Int(value))
        }
        return String(format: value >= 100 ? "%.0f" : "%.1f", value)
    }
}
