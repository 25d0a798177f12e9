import Foundation

extension ComparisonOperator {
    /// The comparison `NSComparisonPredicate.Operator` names; the string and collection
    /// operators (like, matches, in, between, …) are not HealthKit predicate operators here.
    init(translating op: NSComparisonPredicate.Operator) throws(HKError) {
        switch op {
        case .lessThan: self = .lessThan
        case .lessThanOrEqualTo: self = .lessThanOrEqualTo
        case .greaterThan: self = .greaterThan
        case .greaterThanOrEqualTo: self = .greaterThanOrEqualTo
        case .equalTo: self = .equalTo
        case .notEqualTo: self = .notEqualTo
        default:
            throw HKError(.errorInvalidArgument,
                          "operator \(op.rawValue) is not supported; use lessThan, lessThanOrEqualTo, greaterThan, "
                          + "greaterThanOrEqualTo, equalTo or notEqualTo")
        }
    }
}
