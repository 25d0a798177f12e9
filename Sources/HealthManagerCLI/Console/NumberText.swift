import Foundation

/// Numbers as text without locale surprises: a dot for decimals, no grouping, no exponent for
/// ordinary health values, trailing zeros trimmed ("72", "36.6", "0.0042").
enum NumberText {
    static func decimal(_ value: Double, maximumFractionDigits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-inf" : "inf") }
        var text = String(format: "%.\(maximumFractionDigits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// A measured value: three decimals, or three significant digits for tiny magnitudes so a
    /// value like 0.00042 does not print as 0.
    static func measurement(_ value: Double) -> String {
        // NaN and infinities first: log10 of them below would trap converting to Int.
        guard value.isFinite else { return decimal(value, maximumFractionDigits: 0) }
        let magnitude = abs(value)
        // Magnitudes no health value has (a legacy 1e308, a subnormal) keep an exponent
        // instead of printing 309 digits or rounding to a misleading 0.
        if magnitude != 0, magnitude >= 1e15 || magnitude < 1e-9 {
            return String(format: "%.6g", value)
        }
        if magnitude == 0 || magnitude >= 0.001 { return decimal(value, maximumFractionDigits: 3) }
        let digits = Int((-log10(magnitude)).rounded(.up)) + 2
        return decimal(value, maximumFractionDigits: min(digits, 12))
    }
}
