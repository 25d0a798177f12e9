import Foundation

/// Byte counts as people write and read them: what `healthctl apps storage --bound` takes and
/// what healthd's storage messages say. Binary units (KiB = 1,024 bytes); "KB", "MB", "GB" and
/// "TB" are read as the binary units too, as `du` and most file managers mean them.
public enum ByteSize {
    private static let units: [(suffixes: [String], shift: Int64)] = [
        (["tib", "tb", "t"], 40), (["gib", "gb", "g"], 30), (["mib", "mb", "m"], 20), (["kib", "kb", "k"], 10), (["b", ""], 0),
    ]

    /// "512MiB", "2 GiB", "1.5g", "4096": the number of bytes, or nil when it is not a size or is
    /// past 2^62 bytes.
    public static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        for (suffixes, shift) in units {
            for suffix in suffixes where trimmed.hasSuffix(suffix) {
                let number = trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
                guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                      let value = Double(number), value.isFinite, value >= 0 else { continue }
                let bytes = value * Double(Int64(1) << shift)
                guard bytes < Double(Int64(1) << 62) else { return nil }
                return Int64(bytes.rounded())
            }
        }
        return nil
    }

    /// "512 MiB", "1.5 GiB", "310 KiB", "12 bytes": one decimal where it helps.
    public static func text(_ bytes: Int64) -> String {
        for (suffixes, shift) in units where shift > 0 {
            let unit = Double(Int64(1) << shift)
            guard Double(bytes) >= unit else { continue }
            let value = Double(bytes) / unit
            let name = suffixes[0].prefix(1).uppercased() + suffixes[0].dropFirst()
            let shown = value >= 100 || value == value.rounded() ? "\(Int(value.rounded()))" : "\((value * 10).rounded() / 10)"
            return "\(shown) \(name.replacingOccurrences(of: "ib", with: "iB"))"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
