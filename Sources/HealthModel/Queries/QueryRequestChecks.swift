/// The checks healthd makes of a query or deletion request before any store work. Each depends
/// only on the request — never on who asks or what the store holds — so its answer reveals
/// nothing. They live here, on the specs, so that healthd's services (`SampleQueries`,
/// `ChangeQueries`, `AnchoredParts`, `CorrelationService`, `DeletionService`) and the
/// `query-spec` fuzz target run the same code: a check changed for healthd is the check fuzzed.
extension HKObjectType {
    /// The sample type `identifier` names; errorInvalidArgument for an unknown type or one that
    /// holds no samples (a characteristic, say).
    public static func requestedSampleType(_ identifier: String) throws(HKError) -> HKSampleType {
        try sampleType(identifier, notOne: "is not a sample type")
    }

    /// The sample type a deletion names (`deleteObjects`, by object or by predicate): as
    /// `requestedSampleType`, saying that only samples can be deleted.
    public static func deletableSampleType(_ identifier: String) throws(HKError) -> HKSampleType {
        try sampleType(identifier, notOne: "is not a sample type; only samples can be deleted")
    }

    private static func sampleType(_ identifier: String, notOne: String) throws(HKError) -> HKSampleType {
        guard let type = HKObjectType.type(forIdentifier: identifier) else {
            throw HKError(.errorInvalidArgument, "unknown type identifier \(identifier.prefix(100))")
        }
        guard let sampleType = type as? HKSampleType else {
            throw HKError(.errorInvalidArgument, "\(identifier) \(notOne)")
        }
        return sampleType
    }
}

extension SampleQuerySpec {
    /// A sample query (the app's and the manager's QuerySamples): a sample type, a limit that is
    /// not negative, sort keys the type has (`checkSort`) and a predicate that compiles for the
    /// type (`canonicalPredicate`: a unit that does not fit the type is refused here).
    public func check() throws(HKError) {
        _ = try HKObjectType.requestedSampleType(typeIdentifier)
        guard limit >= 0 else { throw HKError(.errorInvalidArgument, "limit must not be negative") }
        try checkSort()  // a workout sort key on another type
        _ = try canonicalPredicate()
    }

    /// A type and predicate an app asks about in the change feed (an observer, a source query,
    /// each anchored descriptor): a sample type and a predicate that compiles for it — units that
    /// fit the type and numbers finite in its stored unit, category predicates on category types.
    /// Refused when the query is opened, before any store work: a long-running query that first
    /// compiled its predicate when a change woke it ended with the error at the first save of the
    /// type by *any* app, so an app could learn from its observer failing that someone it may not
    /// read from had saved.
    public static func checkChangeQuery(typeIdentifier: String, predicate: SamplePredicate?) throws(HKError) {
        _ = try HKObjectType.requestedSampleType(typeIdentifier)
        _ = try SampleQuerySpec(typeIdentifier: typeIdentifier, predicate: predicate).canonicalPredicate()
    }
}

extension DescriptorUnion {
    /// An anchored query's descriptors as its parts: at least one descriptor, each passing
    /// `SampleQuerySpec.checkChangeQuery`, read as the union (`parts`).
    public static func checkedParts(_ descriptors: [Part]) throws(HKError) -> [Part] {
        guard !descriptors.isEmpty else { throw HKError(.errorInvalidArgument, "an anchored query needs at least one query descriptor") }
        for descriptor in descriptors {
            try SampleQuerySpec.checkChangeQuery(typeIdentifier: descriptor.typeIdentifier, predicate: descriptor.predicate)
        }
        return parts(descriptors)
    }
}

extension CorrelationQuerySpec {
    /// A correlation query: a correlation type, sample predicates only for types it can hold,
    /// a limit that is not negative, and predicates that compile (`canonicalized`).
    public func check() throws(HKError) {
        guard HKObjectType.type(forIdentifier: typeIdentifier) is HKCorrelationType else {
            throw HKError(.errorInvalidArgument, "\(typeIdentifier.prefix(100)) is not a correlation type")
        }
        let allowed = Set(CorrelationRules.memberTypes(of: typeIdentifier).map(\.identifier))
        for type in objectPredicates.keys.sorted() where !allowed.contains(type) {
            throw HKError(.errorInvalidArgument, "a sample predicate names \(type.prefix(100)), which \(typeIdentifier) cannot hold")
        }
        guard limit >= 0 else { throw HKError(.errorInvalidArgument, "limit must not be negative") }
        _ = try canonicalized()
    }
}
