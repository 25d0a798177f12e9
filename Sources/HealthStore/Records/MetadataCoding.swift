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
        var bytes: [UInt8] = []
        guard encode(metadata, into: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `encode(_:)`'s text as UTF-8 bytes in `buffer` (its old content replaced, its capacity
    /// kept); false, and `buffer` empty, for no metadata (stored as NULL). The insert path keeps
    /// one buffer for a whole write and binds the bytes as they are (`SampleInserter`): building
    /// a `String` by appending pieces, and binding it, was ≈ 5 % of healthd's CPU in an import
    /// (issue 16, session 13), on the one writer thread every commit waits for.
    static func encode(_ metadata: [String: MetadataValue], into buffer: inout [UInt8]) -> Bool {
        buffer.removeAll(keepingCapacity: true)
        guard !metadata.isEmpty else { return false }
        buffer.reserveCapacity(64 * metadata.count)
        buffer.append(UInt8(ascii: "{"))
        for (position, (key, value)) in metadata.sorted(by: { $0.key < $1.key }).enumerated() {
            if position > 0 { buffer.append(UInt8(ascii: ",")) }
            appendString(key, to: &buffer)
            switch value {
            case let .string(string):
                append(#":{"s":{"_0":"#, to: &buffer)
                appendString(string, to: &buffer)
            case let .number(number):
                append(#":{"n":{"_0":"#, to: &buffer)
                appendNumber(number, to: &buffer)
            case let .date(date):
                append(#":{"d":{"_0":"#, to: &buffer)
                append(String(date.microsecondsSince1970), to: &buffer)
            case let .quantity(number, unit):
                append(#":{"q":{"_0":"#, to: &buffer)
                appendNumber(number, to: &buffer)
                append(#","_1":"#, to: &buffer)
                appendString(unit, to: &buffer)
            case let .bool(bool):
                append(bool ? #":{"b":{"_0":true"# : #":{"b":{"_0":false"#, to: &buffer)
            }
            append("}}", to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
        return true
    }

    /// How many bytes `encode(_:)` stores for `metadata` (0 for none, stored as NULL): exact for
    /// keys, strings, units, dates and booleans — escapes included, a control byte being 6
    /// (`\u0001`) and a quote or backslash 2 — and each number counted at its longest form
    /// (24 bytes), so never less than what is stored. The storage charge (`StoredSize.metadata`)
    /// is this: charged at the texts' raw UTF-8 size, metadata of control characters stored 6.2
    /// times what it was charged (session 21 availability review, finding 3).
    /// Computed without encoding: one pass over the texts' bytes, no allocation.
    static func encodedLength(_ metadata: [String: MetadataValue]) -> Int {
        guard !metadata.isEmpty else { return 0 }
        // `{` and `}`, and a `,` between entries.
        var length = 2 + metadata.count - 1
        for (key, value) in metadata {
            // `"key"` and `:{"x":{"_0":` … `}}`.
            length += stringLength(key) + 12 + 2
            switch value {
            case let .string(string): length += stringLength(string)
            case .number: length += longestNumber
            case let .date(date): length += decimalLength(date.microsecondsSince1970)
            case let .quantity(_, unit): length += longestNumber + 6 + stringLength(unit)  // `,"_1":`
            case let .bool(bool): length += bool ? 4 : 5
            }
        }
        return length
    }

    /// The longest number `appendNumber` writes: Swift's shortest round-trip form of a Double
    /// (`-2.2250738585072014e-308`), longer than the quoted non-finite forms.
    static let longestNumber = 24

    /// `appendString`'s length for `string`: its bytes, the two quotes and the escapes.
    private static func stringLength(_ string: String) -> Int {
        var length = 2
        var string = string
        string.withUTF8 { text in
            length += text.count
            for byte in text where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): length += 1
                default: length += 5
                }
            }
        }
        return length
    }

    /// The digits (and sign) of `value` in decimal.
    private static func decimalLength(_ value: Int64) -> Int {
        var length = value < 0 ? 2 : 1
        var rest = value.magnitude / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        return length
    }

    /// A text's UTF-8 bytes, copied whole (contiguous first if the string is bridged).
    private static func append(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    private static func appendNumber(_ number: Double, to buffer: inout [UInt8]) {
        if number.isNaN {
            append("\"nan\"", to: &buffer)
        } else if number.isInfinite {
            append(number < 0 ? "\"-inf\"" : "\"+inf\"", to: &buffer)
        } else {
            append(number.description, to: &buffer)
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped (RFC 8259 §7); every
    /// other character as it is (the column is UTF-8 text). Every byte that needs escaping is
    /// ASCII and no byte of a multi-byte UTF-8 sequence is, so the scan runs over the bytes and
    /// copies the text between escapes whole: a scalar-by-scalar copy was most of an import's
    /// metadata encoding (13 % of healthd's CPU for 134,000 records).
    private static func appendString(_ string: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { text in
            var plainFrom = 0
            for index in text.indices {
                let byte = text[index]
                guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: text[plainFrom..<index]))
                appendEscaped(byte, to: &buffer)
                plainFrom = index + 1
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: text[plainFrom...]))
        }
        buffer.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ byte: UInt8, to buffer: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"", to: &buffer)
        case UInt8(ascii: "\\"): append("\\\\", to: &buffer)
        case UInt8(ascii: "\n"): append("\\n", to: &buffer)
        case UInt8(ascii: "\r"): append("\\r", to: &buffer)
        case UInt8(ascii: "\t"): append("\\t", to: &buffer)
        default: append("\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16), to: &buffer)
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
