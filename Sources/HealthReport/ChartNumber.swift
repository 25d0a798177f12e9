import Foundation

/// Numbers and positions for charts (the report's SVG and `healthctl chart`), safe for every
/// value the store can hold: what apps save is bounded per sample (1e12 in the sample's unit for
/// most quantity types), but a day's or month's total of millions of such samples, converted to a
/// display unit that multiplies by up to 10^60, is not — it can pass Int64's range or overflow to
/// infinity. Nothing here converts a Double to an integer type before it is clamped (a conversion
/// out of range traps, and a trap in healthctl is a crash of every later chart of that period).
public enum ChartNumber {
    /// An axis or value label: whole numbers from 100 up (and whole values below), one decimal
    /// otherwise, an exponent from 1e15 up (no health value is that large; a total made of junk
    /// can be), and "–" for what is not a number.
    public static func label(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let text: String
        if abs(value) >= 1e15 {
            text = String(format: "%.3g", value)
        } else if abs(value) >= 100 || value == value.rounded() {
            text = String(format: "%.0f", value)
        } else {
            text = String(format: "%.1f", value)
        }
        return text == "-0" ? "0" : text
    }

    /// Where `value` lies between `low` and `high`, from 0 to 1: 0 when the range is empty or
    /// not a number, clamped at both ends. Halved first so `high - low` cannot overflow for
    /// finite ends; an infinite value lands at the nearer end.
    public static func fraction(_ value: Double, low: Double, high: Double) -> Double {
        let span = high / 2 - low / 2
        guard span > 0, span.isFinite else { return 0 }
        let position = (value / 2 - low / 2) / span
        if position.isNaN { return 0 }
        return min(1, max(0, position))
    }

    /// The cell (0 ..< `cells`) `value` falls in between `low` and `high`.
    public static func cell(_ value: Double, low: Double, high: Double, cells: Int) -> Int {
        guard cells > 1 else { return 0 }
        // Clamped to 0...1 first, so the product is within 0...cells-1 before the conversion.
        return Int((fraction(value, low: low, high: high) * Double(cells - 1)).rounded())
    }

    /// A coordinate in SVG: one decimal, and 0 for what is not a number (never "nan" or "inf",
    /// which a browser rejects for the whole element).
    public static func coordinate(_ value: Double) -> String {
        String(format: "%.1f", value.isFinite ? value : 0)
    }
}
