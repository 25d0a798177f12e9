import Foundation
import HealthModel

/// Metadata as stored: a JSON object of key -> one-letter-tagged value, so the value's HealthKit
/// type (string, number, date, quantity, bool) survives the round trip exactly.
enum MetadataCoding {
    private enum Tagged: Codable {
        case s(String), n(Double), d(Int64), q(Double, String), b(Bool)
    }

    /// Written by hand rather than with `JSONEncoder`, which cost more per sample than the
    /// row's insert (an encoder, a `Codable` walk and a dictionary per value; issue 17). The
    /// text is what `JSONEncoder` with sorted keys makes, read back by `decode` and by the SQL
    /// of metadata predicates (`json_each`/`json_extract`): `{"key":{"n":{"_0":5.0}}}`.
    /// Numbers are Swift's shortest round-trip form; infinities and NaN the strings the decoder's
    /// non-conforming-float strategy reads back.
    static func encode(_ metadata: [String: MetadataValue]) -> String? {
        guard !metadata.isEmpty else { return nil }
        var json = "{"
        // Room for a typical entry up front: growing from a small string doubled and copied the
        // text four or five times for an imported record's three or four entries.
        json.reserveCapacity(64 * metadata.count)
        for (position, (key, value)) in metadata.sorted(by: { $0.key < $1.key }).enumerated() {
            if position > 0 { json += "," }
            appendString(key, to: &json)
            switch value {
            case let .string(string):
                json += ":{\"s\":{\"_0\":"
                appendString(string, to: &json)
            case let .number(number):
                json += ":{\"n\":{\"_0\":"
                appendNumber(number, to: &json)
            case let .date(date):
                json += ":{\"d\":{\"_0\":\(date.microsecondsSince1970)"
            case let .quantity(number, unit):
                json += ":{\"q\":{\"_0\":"
                appendNumber(number, to: &json)
                json += ",\"_1\":"
                appendString(unit, to: &json)
            case let .bool(bool):
                json += bool ? ":{\"b\":{\"_0\":true" : ":{\"b\":{\"_0\":false"
            }
            json += "}}"
        }
        json += "}"
        return json
    }

    private static func appendNumber(_ number: Double, to json: inout String) {
        if number.isNaN {
            json += "\"nan\""
        } else if number.isInfinite {
            json += number < 0 ? "\"-inf\"" : "\"+inf\""
        } else {
            json += number.description
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped (RFC 8259 §7); every
    /// other character as it is (the column is UTF-8 text). Every byte that needs escaping is
    /// ASCII and no byte of a multi-byte UTF-8 sequence is, so the scan runs over the bytes and
    /// copies the text between escapes whole: a scalar-by-scalar copy was most of an import's
    /// metadata encoding (13 % of healthd's CPU for 134,000 records).
    private static func appendString(_ string: String, to json: inout String) {
        json += "\""
        let utf8 = string.utf8
        var plainFrom = utf8.startIndex
        var index = plainFrom
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                json += string[plainFrom..<index]
                json += escaped(byte)
                plainFrom = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        json += string[plainFrom...]
        json += "\""
    }

    private static func escaped(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): "\\\""
        case UInt8(ascii: "\\"): "\\\\"
        case UInt8(ascii: "\n"): "\\n"
        case UInt8(ascii: "\r"): "\\r"
        case UInt8(ascii: "\t"): "\\t"
        default: "\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
        }
    }

    static func decode(_ json: String?) throws -> [String: MetadataValue] {
        guard let json else { return [:] }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        let tagged = try decoder.decode([String: Tagged].self, from: Data(json.utf8))
        return tagged.mapValues { value in
            switch value {
            case let .s(string): .string(string)
            case let .n(number): .number(number)
            case let .d(micros): .date(Date(microsecondsSince1970: micros))
            case let .q(number, unit): .quantity(value: number, unit: unit)
            case let .b(bool): .bool(bool)
            }
        }
    }
}
