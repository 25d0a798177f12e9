public import Foundation

extension HKQuery {
    /// HealthKit's `predicateForVerifiableClinicalRecords(withRelevantDateWithin:)` (iOS 15):
    /// Apple: it "matches HKVerifiableClinicalRecord instances that have a relevantDate property
    /// within the specified date interval" (both ends included, as `DateInterval.contains`). Only
    /// an `HKVerifiableClinicalRecordQuery` takes it; in any other query it is refused.
    public static func predicateForVerifiableClinicalRecords(withRelevantDateWithin dateInterval: DateInterval) -> NSPredicate {
        VerifiableRecordPredicate(relevantInterval: dateInterval.start...dateInterval.end)
    }
}

/// The `NSPredicate` of `predicateForVerifiableClinicalRecords`: it carries the interval the
/// query sends (`VerifiableRecordQuerySpec`), as `SampleTreePredicate` carries a sample predicate
/// (swift-corelibs-foundation has no predicate format strings).
final class VerifiableRecordPredicate: NSPredicate, @unchecked Sendable {
    let relevantInterval: ClosedRange<Date>

    init(relevantInterval: ClosedRange<Date>) {
        self.relevantInterval = relevantInterval
        super.init(value: true)
    }

    required init?(coder: NSCoder) {
        nil  // never archived: the interval travels in the query's request
    }

    override func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        guard let record = object as? HKVerifiableClinicalRecord else { return false }
        return relevantInterval.contains(record.relevantDate)
    }

    override func evaluate(with object: Any?) -> Bool {
        evaluate(with: object, substitutionVariables: nil)
    }

    override var predicateFormat: String { "relevantDate BETWEEN {\(relevantInterval.lowerBound), \(relevantInterval.upperBound)}" }
    override var description: String { predicateFormat }
}
