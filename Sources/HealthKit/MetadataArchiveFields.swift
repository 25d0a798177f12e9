import Foundation
import HealthModel

/// How a value class that is not a sample (`HKWorkoutEvent`, `HKWorkoutActivity`) archives its
/// metadata, in one place. `prefix` puts the fields of a value archived inside another's fields
/// (an activity's events: `events.0.metadata…`) apart from the owner's own.
///
/// Each entry is flat fields beside the owner's own — key, kind, value and (for a quantity) unit
/// under numbered keys, plus a count — never a nested dictionary: swift-corelibs-foundation traps
/// when a nested archived object is of an unexpected class (see `NSCoder+ArchiveFields`), so a
/// tampered archive must find only strings and numbers, which can merely fail to decode. Dates are
/// numbers of seconds since the reference date. Reading stops at the first missing or mistyped
/// field and fails (nil), so a tampered count cannot make it read more entries than are there.
enum MetadataArchiveFields {
    private static func countKey(_ prefix: String) -> String { prefix + "metadataCount" }
    private static func key(_ prefix: String, _ index: Int, _ field: String) -> String { "\(prefix)metadata.\(index).\(field)" }

    private enum Kind: String {
        case string, number, date, quantity, bool
    }

    static func encode(_ metadata: [String: MetadataValue]?, prefix: String = "", with coder: NSCoder) {
        guard let metadata, !metadata.isEmpty else { return }
        // Sorted so that equal metadata makes the same archive.
        let entries = metadata.sorted { $0.key < $1.key }
        coder.encode(NSNumber(value: entries.count), forKey: countKey(prefix))
        for (index, (name, value)) in entries.enumerated() {
            coder.encode(NSString(string: name), forKey: key(prefix, index, "key"))
            let (kind, object, unit): (Kind, NSObject, String?) = switch value {
            case let .string(text): (.string, NSString(string: text), nil)
            case let .number(number): (.number, NSNumber(value: number), nil)
            case let .date(date): (.date, NSNumber(value: date.timeIntervalSinceReferenceDate), nil)
            case let .quantity(amount, unit): (.quantity, NSNumber(value: amount), unit)
            case let .bool(flag): (.bool, NSNumber(value: flag), nil)
            }
            coder.encode(NSString(string: kind.rawValue), forKey: key(prefix, index, "kind"))
            coder.encode(object, forKey: key(prefix, index, "value"))
            if let unit { coder.encode(NSString(string: unit), forKey: key(prefix, index, "unit")) }
        }
    }

    /// `.some(nil)` when the archive holds no metadata, nil when its metadata fields are malformed
    /// (a decoding failure), else the entries.
    static func decode(prefix: String = "", from coder: NSCoder) -> [String: MetadataValue]?? {
        guard coder.containsValue(forKey: countKey(prefix)) else { return .some(nil) }
        guard let count = coder.decodeRequiredInt(forKey: countKey(prefix)), count > 0 else { return nil }
        var metadata: [String: MetadataValue] = [:]
        for index in 0..<count {
            guard let name = coder.decodeRequiredString(forKey: key(prefix, index, "key")),
                  let kind = coder.decodeRequiredString(forKey: key(prefix, index, "kind")).flatMap(Kind.init(rawValue:)),
                  let value = decodeValue(kind, prefix: prefix, at: index, from: coder),
                  metadata.updateValue(value, forKey: name) == nil else { return nil }
        }
        return .some(metadata)
    }

    private static func decodeValue(_ kind: Kind, prefix: String, at index: Int, from coder: NSCoder) -> MetadataValue? {
        if kind == .string { return coder.decodeRequiredString(forKey: key(prefix, index, "value")).map(MetadataValue.string) }
        guard let number = coder.decodeRequiredNumber(forKey: key(prefix, index, "value")) else { return nil }
        switch kind {
        case .string: return nil
        case .number: return .number(number.doubleValue)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: number.doubleValue))
        case .bool: return .bool(number.boolValue)
        case .quantity:
            guard let unit = coder.decodeRequiredString(forKey: key(prefix, index, "unit")) else { return nil }
            return .quantity(value: number.doubleValue, unit: unit)
        }
    }
}
