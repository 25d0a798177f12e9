import Foundation
import HealthReport

/// `healthctl chart`'s drawing: one line per period, sized to a terminal width. Pure (buckets in,
/// lines out), so it is tested without a broker.
///
/// A cumulative type (steps, energy) is drawn as bars of each period's total, from zero. Any other
/// (heart rate, body mass) as each period's range, lowest to highest, on an axis from the lowest
/// to the highest value shown, with the average marked `●`, and its numbers `min / avg / max`
/// after it. A period without samples has an empty line, so gaps show as gaps. Lines fit `width`
/// unless the numbers alone need more (the bar keeps at least 10 cells).
struct TerminalChart {
    struct Bucket: Equatable {
        var label: String
        var count = 0
        var sum = 0.0
        var minimum = Double.infinity
        var maximum = -Double.infinity

        var average: Double { count > 0 ? sum / Double(count) : 0 }

        mutating func add(_ value: Double) {
            count += 1
            sum += value
            minimum = min(minimum, value)
            maximum = max(maximum, value)
        }
    }

    enum Style { case totals, ranges }

    /// Narrowest chart drawn (a day's label, a 10-cell bar and `999.9 / 999.9 / 999.9`); a
    /// narrower terminal gets this width and wraps.
    static let minimumWidth = 50

    let style: Style
    let unit: String
    let width: Int

    init(style: Style, unit: String, width: Int) {
        self.style = style
        self.unit = unit
        self.width = max(width, Self.minimumWidth)
    }

    func lines(_ buckets: [Bucket]) -> [String] {
        let labelWidth = buckets.map(\.label.count).max() ?? 0
        let numbers = buckets.map { $0.count == 0 ? "" : figures($0) }
        let numberWidth = numbers.map(\.count).max() ?? 0
        // label, " │", bar, " ", numbers
        let barWidth = max(width - labelWidth - 2 - 1 - numberWidth, 10)
        let filled = buckets.filter { $0.count > 0 }
        let low = style == .totals ? 0 : filled.map(\.minimum).min() ?? 0
        let high = filled.map { style == .totals ? $0.sum : $0.maximum }.max() ?? 0
        return zip(buckets, numbers).map { bucket, number in
            let label = bucket.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
            let bar = bucket.count == 0 ? String(repeating: " ", count: barWidth) : draw(bucket, low: low, high: high, width: barWidth)
            let padded = String(repeating: " ", count: numberWidth - number.count) + number
            return "\(label) │\(bar) \(padded)"
        }
    }

    /// What the lines show, with the unit (said once here, not on every line, so the numbers fit).
    var legend: String {
        switch style {
        case .totals: "█ total per period, in \(unit)"
        case .ranges: "├─●─┤ lowest, average, highest; numbers min / avg / max, in \(unit)"
        }
    }

    private func figures(_ bucket: Bucket) -> String {
        switch style {
        case .totals: Self.number(bucket.sum)
        case .ranges: "\(Self.number(bucket.minimum)) / \(Self.number(bucket.average)) / \(Self.number(bucket.maximum))"
        }
    }

    /// One bucket's bar in `width` cells.
    private func draw(_ bucket: Bucket, low: Double, high: Double, width: Int) -> String {
        // ChartNumber clamps before any conversion to Int: a total can pass Int's range or be
        // infinite after conversion to the display unit.
        func cell(_ value: Double) -> Int { ChartNumber.cell(value, low: low, high: high, cells: width) }
        var cells = Array(repeating: " ", count: width)
        switch style {
        case .totals:
            let length = Int((ChartNumber.fraction(bucket.sum, low: low, high: high) * Double(width)).rounded())
            for index in 0..<min(max(length, bucket.sum > 0 ? 1 : 0), width) { cells[index] = "█" }
        case .ranges:
            let first = cell(bucket.minimum), last = cell(bucket.maximum)
            for index in min(first, last)...max(first, last) { cells[index] = "─" }
            cells[first] = "├"
            cells[last] = first == last ? "│" : "┤"
            cells[cell(bucket.average)] = "●"
        }
        return cells.joined()
    }

    static func number(_ value: Double) -> String { ChartNumber.label(value) }
}
