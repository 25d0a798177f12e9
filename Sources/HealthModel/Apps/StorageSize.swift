/// A byte count as the user writes it for a storage quota (`healthctl apps quota APP SIZE`) and
/// as healthd and healthctl print it: one parser and one printer for both sides.
public enum StorageSize {
    /// Why a size did not parse; the message says what is accepted.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let text: String
        public var description: String {
            "\"\(String(text.unicodeScalars.prefix(40).filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init)))\" "
                + "is not a size: write a whole or decimal number of bytes with an optional unit, "
                + "e.g. 500MB, 1.5GiB, 2048 (units B, KB, MB, GB, TB, PB, EB — powers of 1000 — and KiB … EiB — powers of 1024)"
        }
    }

    private static let units: [String: Int64] = [
        "": 1, "b": 1,
        "k": 1_000, "kb": 1_000, "m": 1_000_000, "mb": 1_000_000, "g": 1_000_000_000, "gb": 1_000_000_000,
        "t": 1_000_000_000_000, "tb": 1_000_000_000_000, "pb": 1_000_000_000_000_000, "eb": 1_000_000_000_000_000_000,
        "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40, "pib": 1 << 50, "eib": 1 << 60,
    ]

    /// Parses "500MB", "1.5GiB", "2048": digits, at most one '.', then a unit. Refuses signs,
    /// exponents, NaN and infinity spellings, NUL bytes and anything past Int64.
    public static func parse(_ text: String) throws(ParseError) -> Int64 {
        let trimmed = text.trimmingSpaces
        let numberPart = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = trimmed.dropFirst(numberPart.count).trimmingSpaces.lowercased()
        let pieces = numberPart.split(separator: ".", omittingEmptySubsequences: false)
        guard !numberPart.isEmpty, pieces.count <= 2, !(pieces.first ?? "").isEmpty,
              let multiplier = units[unit] else { throw ParseError(text: text) }
        let fraction = pieces.count == 2 ? pieces[1] : ""
        guard pieces.count == 1 || !fraction.isEmpty, multiplier > 1 || fraction.isEmpty,
              let whole = Int64(pieces[0]) else { throw ParseError(text: text) }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { throw ParseError(text: text) }
        // The fraction of one unit, in bytes rounded down: below the multiplier (at most 2^60),
        // where a Double is exact to well under a byte for the digits that matter.
        var part: Int64 = 0
        if !fraction.isEmpty {
            guard let value = Double("0." + fraction.prefix(18)) else { throw ParseError(text: text) }
            part = min(multiplier - 1, Int64((value * Double(multiplier)).rounded(.down)))
        }
        let (total, overflowTotal) = scaled.addingReportingOverflow(part)
        guard !overflowTotal else { throw ParseError(text: text) }
        return total
    }

    /// "1.5 GiB (1610612736 bytes)"; below 1 KiB just "512 bytes".
    public static func describe(_ bytes: Int64) -> String {
        guard bytes >= 1_024 else { return "\(bytes) bytes" }
        return "\(short(bytes)) (\(bytes) bytes)"
    }

    /// "1.5 GiB": one decimal, binary units.
    public static func short(_ bytes: Int64) -> String {
        let names = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var value = Double(bytes)
        var index = 0
        while value >= 1_024, index < names.count - 1 {
            value /= 1_024
            index += 1
        }
        if index == 0 { return "\(bytes) bytes" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(names[index])"
    }
}

private extension StringProtocol {
    var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = lastIndex { $0 != " " }.map { index(after: $0) } ?? start
        return Substring(self[start ..< Swift.max(start, end)])
    }
}
