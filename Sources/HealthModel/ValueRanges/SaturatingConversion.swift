/// Whole numbers from values the store or an import file supplies. `Int64(someDouble)` traps when
/// the value is NaN, infinite or outside Int64's range, and such values do reach display and
/// export code: a voltage of 1e300 µV in an export's ECG file, a heartbeat 1e-300 s after the
/// previous one (a rate of 6e301 per minute). There, a clamped number is a correct rendering of
/// junk; a trap stops the user's whole import or export.
extension Int64 {
    /// `value` rounded to the nearest whole number and clamped to Int64's range; NaN is 0.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9.223372036854775807e18 {
            self = .max
        } else if value <= -9.223372036854775808e18 {
            self = .min
        } else {
            self = Int64(value.rounded())
        }
    }
}
