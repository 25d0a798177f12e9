extension SamplePredicate {
    /// Most conditions one predicate may hold (`conditionCount`). SQLite refuses an expression
    /// nested deeper than 1,000 levels, and each OR operand or one-of value adds one or two;
    /// below this count every predicate compiles. Checked once, when the broker decodes a
    /// predicate (`PredicateWire.read`), before any data is read, so every app gets the same
    /// answer. UUID, source and device lists are not counted per member: the store binds each list as
    /// one JSON text (`SampleSQL`), so they are bounded by the frame size only.
    public static let maximumConditions = 400

    /// Most metadata comparisons one predicate may hold (`metadataComparisonCount`): each
    /// metadata condition reads the row's whole metadata JSON once (`json_each`), and each of its
    /// one-of values reads every entry again, so a row's cost grows with these and with the size
    /// of the row's metadata (up to ~274 KB, `SampleLimits`). 400 of them cost 0.3–0.45 s per row
    /// of large metadata (SQLite 3.40; docs/security-history.md, session 19); 32 keep a row under
    /// ~25 ms, and what a statement may spend in all is the store's statement budget
    /// (`StatementBudget`). Checked with `maximumConditions`, at decoding, before any data is read.
    public static let maximumMetadataComparisons = 32

    /// The conditions the store's SQL holds for this predicate: one per node, plus one per
    /// value of a device or metadata one-of and per source revision.
    public var conditionCount: Int {
        switch self {
        case .dateRange, .uuids, .sources, .devices, .workout, .workoutActivityType, .quantity, .categoryValue, .noCorrelation, .workoutEffort, .stateOfMind,
             .fhirResource, .categoryValues, .electrocardiogram, .medication:
            return 1  // a category value list is bound as one JSON text, like UUIDs
        case let .workoutValue(test):
            if case let .activity(activityTest) = test { return activityTest.conditionCount }
            return 1
        case let .device(_, allowed):
            return max(1, allowed.count)
        case let .sourceRevisions(revisions):
            return max(1, revisions.count)  // one SQL clause per revision
        case let .metadata(_, test):
            if case let .oneOf(values) = test { return max(1, values.count) }
            return 1
        case let .and(operands), let .or(operands):
            return operands.reduce(1) { $0 + $1.conditionCount }
        case let .not(operand):
            return 1 + operand.conditionCount
        }
    }

    /// The metadata comparisons the store's SQL makes per row for this predicate: one per
    /// metadata condition, one per value of a metadata one-of.
    public var metadataComparisonCount: Int {
        switch self {
        case let .metadata(_, test):
            if case let .oneOf(values) = test { return max(1, values.count) }
            return 1
        case let .and(operands), let .or(operands):
            return operands.reduce(0) { $0 + $1.metadataComparisonCount }
        case let .not(operand):
            return operand.metadataComparisonCount
        default:
            return 0
        }
    }

    /// Throws `errorInvalidArgument` stating the limit when the predicate holds more than
    /// `maximumConditions` conditions or more than `maximumMetadataComparisons` metadata
    /// comparisons.
    public func checkSize() throws(HKError) {
        let count = conditionCount
        guard count <= Self.maximumConditions else {
            throw HKError(.errorInvalidArgument,
                          "a predicate may hold at most \(Self.maximumConditions) conditions (OR/AND operands and one-of values); this one holds \(count). Use predicateForObjects(with:) for long UUID lists, or split the query")
        }
        let metadata = metadataComparisonCount
        guard metadata <= Self.maximumMetadataComparisons else {
            throw HKError(.errorInvalidArgument,
                          "a predicate may hold at most \(Self.maximumMetadataComparisons) metadata comparisons (predicateForObjects(withMetadataKey:…) conditions and their allowed values); this one holds \(metadata). Narrow the predicate, or split the query")
        }
    }
}
