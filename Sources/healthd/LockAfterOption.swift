/// `--lock-after`: a positive number followed by s, m or h ("90s", "10m", "1.5h").
enum LockAfterOption {
    static func parse(_ text: String) -> Duration? {
        guard let unit = text.last, let number = Double(text.dropLast()), number.isFinite, number > 0 else { return nil }
        let seconds: Double
        switch unit {
        case "s": seconds = number
        case "m": seconds = number * 60
        case "h": seconds = number * 3600
        default: return nil
        }
        guard seconds <= 7 * 24 * 3600 else { return nil }  // a week: past that it is a typo
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
