import Foundation

/// The `NSPredicate` the `HKQuery.predicateFor…` functions return. It carries the predicate as
/// the serializable tree the broker evaluates; `NSCompoundPredicate`s of these are translated
/// by walking their subpredicates (see `SamplePredicate.init(translating:)`). Apps only see it
/// as an `NSPredicate`, as in HealthKit. (HealthKit's own `HKSamplePredicate` is the generic
/// struct of the descriptor API.)
///
/// swift-corelibs-foundation has no predicate format strings or key-value coding, so this
/// subclass is how HealthKit's predicate API can exist on Linux at all.
final class SampleTreePredicate: NSPredicate {
    let samplePredicate: SamplePredicate

    init(_ samplePredicate: SamplePredicate) {
        self.samplePredicate = samplePredicate
        super.init(value: true)
    }

    required init?(coder: NSCoder) {
        nil  // never archived: predicates travel as SamplePredicate on the wire
    }

    /// Evaluates against an `HKSample` with the broker's reference semantics, so filtering
    /// samples already fetched agrees with a query. Anything else does not match.
    override func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        guard let sample = object as? HKSample else { return false }
        return samplePredicate.matches(sample.matchingRecord)
    }

    override func evaluate(with object: Any?) -> Bool {
        evaluate(with: object, substitutionVariables: nil)
    }

    override var predicateFormat: String { "\(samplePredicate)" }
    override var description: String { predicateFormat }
}

extension HKSample {
    /// The record a predicate is matched against, with the source of a fetched sample.
    var matchingRecord: SampleRecord {
        SampleRecord(uuid: uuid, typeIdentifier: sampleType.identifier, startDate: startDate, endDate: endDate,
                     value: recordValue, metadata: metadataValues ?? [:], device: device?.record, source: sourceRevision.record)
    }
}
