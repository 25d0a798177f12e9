/// The comparisons of `NSComparisonPredicate.Operator` that HealthKit's value predicates take
/// (`predicateForQuantitySamples(with:quantity:)` and the like).
public enum ComparisonOperator: Hashable, Sendable, CaseIterable {
    case lessThan, lessThanOrEqualTo, greaterThan, greaterThanOrEqualTo, equalTo, notEqualTo

    /// The SQL operator with the same meaning.
    public var sqlOperator: String {
        switch self {
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        case .equalTo: "="
        case .notEqualTo: "<>"
        }
    }

    /// `lhs OP rhs`.
    public func evaluate<T: Comparable>(_ lhs: T, _ rhs: T) -> Bool {
        switch self {
        case .lessThan: lhs < rhs
        case .lessThanOrEqualTo: lhs <= rhs
        case .greaterThan: lhs > rhs
        case .greaterThanOrEqualTo: lhs >= rhs
        case .equalTo: lhs == rhs
        case .notEqualTo: lhs != rhs
        }
    }
}
