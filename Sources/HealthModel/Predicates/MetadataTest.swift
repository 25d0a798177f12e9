/// What a metadata predicate asks of the value under its key.
public enum MetadataTest: Hashable, Sendable {
    /// `predicateForObjects(withMetadataKey:)`: the key is present.
    case exists
    /// `predicateForObjects(withMetadataKey:allowedValues:)`: the value equals one of these.
    case oneOf([MetadataValue])
    /// `predicateForObjects(withMetadataKey:operatorType:value:)`: `stored OP value`.
    case compare(ComparisonOperator, MetadataValue)

    /// Whether `stored` (nil: the key is absent) passes. Values compare only with values of
    /// their own kind — a string never equals a number — and quantities only in compatible
    /// units (converted); any other pairing does not match, whatever the operator, so "not
    /// equal" also needs a value of the same kind. Strings compare by their UTF-8 bytes, as
    /// SQLite compares them (so "é" composed and decomposed differ).
    public func matches(_ stored: MetadataValue?) -> Bool {
        guard let stored else { return false }
        switch self {
        case .exists:
            return true
        case let .oneOf(values):
            return values.contains { Self.compare(stored, .equalTo, $0) }
        case let .compare(op, value):
            return Self.compare(stored, op, value)
        }
    }

    static func compare(_ stored: MetadataValue, _ op: ComparisonOperator, _ value: MetadataValue) -> Bool {
        switch (stored, value) {
        case let (.string(lhs), .string(rhs)): return op.evaluate(UTF8Order(lhs), UTF8Order(rhs))
        case let (.number(lhs), .number(rhs)): return op.evaluate(lhs, rhs)
        case let (.date(lhs), .date(rhs)): return op.evaluate(lhs.microsecondsSince1970, rhs.microsecondsSince1970)
        case let (.bool(lhs), .bool(rhs)): return op.evaluate(lhs ? 1 : 0, rhs ? 1 : 0)
        case let (.quantity(lhs, lhsUnit), .quantity(rhs, rhsUnit)):
            guard let converted = try? HKQuantity(unit: HKUnit.parse(rhsUnit), doubleValue: rhs).value(in: HKUnit.parse(lhsUnit)) else {
                return false
            }
            return op.evaluate(lhs, converted)
        default: return false
        }
    }
}

/// A string ordered by its UTF-8 bytes: SQLite's BINARY collation.
private struct UTF8Order: Comparable {
    let bytes: [UInt8]

    init(_ string: String) { bytes = Array(string.utf8) }

    static func < (lhs: UTF8Order, rhs: UTF8Order) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}
