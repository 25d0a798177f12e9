import Foundation
import HealthModel

/// Metadata as stored: a JSON object of key -> one-letter-tagged value, so the value's HealthKit
/// type (string, number, date, quantity, bool) survives the round trip exactly.
enum MetadataCoding {
    private enum Tagged: Codable {
        case s(String), n(Double), d(Int64), q(Double, String), b(Bool)
    }

    static func encode(_ metadata: [String: MetadataValue]) throws -> String? {
        guard !metadata.isEmpty else { return nil }
        let tagged = metadata.mapValues { value -> Tagged in
            switch value {
            case let .string(string): .s(string)
            case let .number(number): .n(number)
            case let .date(date): .d(date.microsecondsSince1970)
            case let .quantity(number, unit): .q(number, unit)
            case let .bool(bool): .b(bool)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(tagged), as: UTF8.self)
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
