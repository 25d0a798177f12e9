import Foundation

/// Text as XML attribute values and element content hold it, and numbers as the export spells
/// them. Every string an export or GPX file writes goes through `escaped`: source names,
/// metadata and device descriptions are anyone's text.
enum ExportXMLText {
    /// `&`, `<`, `>`, `"` and `'` as entities; tab, newline and carriage return as character
    /// references (an attribute would otherwise turn them into spaces when read back); other
    /// characters XML 1.0 does not allow (C0 controls, lone surrogates, U+FFFE/U+FFFF) as U+FFFD.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF {
                    result.unicodeScalars.append("\u{FFFD}")
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// A whole number without a fraction ("12", as Apple writes counts), anything else in the
    /// shortest form that reads back to the same Double.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// ` key="value"` for each pair whose value is not nil, in order.
    static func attributes(_ pairs: [(String, String?)]) -> String {
        var result = ""
        for (key, value) in pairs {
            guard let value else { continue }
            result += " \(key)=\"\(escaped(value))\""
        }
        return result
    }
}
