import Foundation

/// What an `HKQuery.predicateFor…` function returns for arguments HealthKit would reject with
/// an Objective-C exception, which Swift cannot catch: a predicate that carries the reason and
/// fails the query that uses it with that `errorInvalidArgument` (see
/// `SamplePredicate.init(translating:)`). It matches nothing when evaluated directly.
final class UnusablePredicate: NSPredicate {
    let error: HKError

    init(_ error: HKError) {
        self.error = error
        super.init(value: false)
    }

    required init?(coder: NSCoder) {
        nil  // never archived
    }

    override func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool { false }
    override func evaluate(with object: Any?) -> Bool { false }
    override var predicateFormat: String { "unusable predicate: \(error.message)" }
    override var description: String { predicateFormat }
}
