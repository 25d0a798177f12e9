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
    /// other character as it is (the column is UTF-8 text).
    private static func appendString(_ string: String, to json: inout String) {
        json += "\""
        var plainFrom = string.unicodeScalars.startIndex
        var index = plainFrom
        let scalars = string.unicodeScalars
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let escaped: String? = switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case _ where scalar.value < 0x20: "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: nil
            }
            if let escaped {
                json.unicodeScalars.append(contentsOf: scalars[plainFrom..<index])
                json += escaped
                plainFrom = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        json.unicodeScalars.append(contentsOf: scalars[plainFrom...])
        json += "\""
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
