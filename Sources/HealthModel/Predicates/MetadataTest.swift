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
    /// units (converted); any other pairing does not match. "Not equal" is the one exception:
    /// it is "not equal to", true when the key is absent or holds a value of another kind, as
    /// NSPredicate's `metadata.key != value` (nil != value) — Apple documents
    /// `predicateForObjects(withMetadataKey:operatorType:value:)` as equivalent to that format
    /// string, and `!= YES` on `HKMetadataKeyWasUserEntered` is how apps drop manual entries
    /// while keeping recorded samples, which carry no such key. Strings compare by their UTF-8
    /// bytes, as SQLite compares them (so "é" composed and decomposed differ).
    public func matches(_ stored: MetadataValue?) -> Bool {
        if case let .compare(.notEqualTo, value) = self {
            return !(stored.map { Self.compare($0, .equalTo, value) } ?? false)
        }
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

    /// The values this test compares with.
    var operands: [MetadataValue] {
        switch self {
        case .exists: []
        case let .oneOf(values): values
        case let .compare(_, value): [value]
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
