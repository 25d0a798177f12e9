/// An HKCorrelationQuery (or an HKSampleQuery of a correlation type) as a value.
public struct CorrelationQuerySpec: Hashable, Sendable {
    /// An `HKCorrelationTypeIdentifier…` string.
    public var typeIdentifier: String
    /// Over the correlations themselves (their dates, UUIDs, source, metadata…).
    public var predicate: SamplePredicate?
    /// HKCorrelationQuery's `samplePredicates`, by sample type identifier. A correlation matches
    /// when at least one of its samples matches the predicate given for that sample's type (any
    /// entry may match). Empty: no condition. The samples returned are always all of them.
    public var objectPredicates: [String: SamplePredicate]
    /// What an HKSampleQuery of a correlation type adds; an HKCorrelationQuery has neither
    /// (oldest first, no limit).
    public var sort: [SampleSort]
    public var limit: Int

    public init(typeIdentifier: String, predicate: SamplePredicate? = nil, objectPredicates: [String: SamplePredicate] = [:],
                sort: [SampleSort] = [], limit: Int = 0) {
        self.typeIdentifier = typeIdentifier
        self.predicate = predicate
        self.objectPredicates = objectPredicates
        self.sort = sort
        self.limit = limit
    }

    /// The sample query `spec` (of a correlation type) as a correlation query.
    public init(_ spec: SampleQuerySpec) {
        self.init(typeIdentifier: spec.typeIdentifier, predicate: spec.predicate, sort: spec.sort, limit: spec.limit)
    }
}
