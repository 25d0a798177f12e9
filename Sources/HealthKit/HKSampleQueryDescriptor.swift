public import Foundation

/// HealthKit's async sample query: `try await descriptor.result(for: store)`.
///
/// The broker answers one type per query, so several predicates are read as their union
/// (`DescriptorUnion`: one query per type, its predicate any of that type's, so a sample two
/// predicates match comes once) and the types' results are merged here: sorted by the sort
/// descriptors (stable, in predicate order for ties) and cut to `limit`. Each query is limited
/// too, which is enough to get the right first `limit` samples of the merge.
public struct HKSampleQueryDescriptor<Sample: HKSample>: Sendable {
    public let predicates: [HKSamplePredicate<Sample>]
    public let sortDescriptors: [SortDescriptor<Sample>]
    public let limit: Int?

    public init(predicates: [HKSamplePredicate<Sample>], sortDescriptors: [SortDescriptor<Sample>], limit: Int? = nil) {
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
        self.limit = limit
    }

    /// Runs the query; cancelling the calling task stops it (`errorUserCanceled`).
    public func result(for healthStore: HKHealthStore) async throws -> [Sample] {
        let specs = try querySpecs()
        var results: [[Sample]] = []
        for spec in specs {
            let found = try await healthStore.connection.samples(matching: spec)
            var typed: [Sample] = []
            typed.reserveCapacity(found.count)
            for sample in found {
                guard let sample = sample as? Sample else {
                    throw HKError(.unknownError, "healthd answered a \(spec.typeIdentifier) query with a \(type(of: sample))")
                }
                typed.append(sample)
            }
            results.append(typed)
        }
        // As on the wire, 0 means no limit.
        return SampleQueryMerge.merged(results, sorts: specs[0].sort, limit: limit ?? HKObjectQueryNoLimit)
    }

    func querySpecs() throws(HKError) -> [SampleQuerySpec] {
        guard !predicates.isEmpty else {
            throw HKError(.errorInvalidArgument, "an HKSampleQueryDescriptor needs at least one predicate")
        }
        if let limit, limit < 0 { throw HKError(.errorInvalidArgument, "limit must not be negative, got \(limit)") }
        let sorts = try sortDescriptors.map { (descriptor) throws(HKError) in
            try SampleSort(keyPath: descriptor.keyPath, root: Sample.self, ascending: descriptor.order == .forward)
        }
        let specs = try predicates.map { (predicate) throws(HKError) in
            let spec = SampleQuerySpec(typeIdentifier: predicate.sampleType.identifier,
                                       predicate: try predicate.nsPredicate.map { (ns) throws(HKError) in try SamplePredicate(translating: ns) },
                                       sort: sorts, limit: limit ?? HKObjectQueryNoLimit)
            try spec.checkSort()
            return spec
        }
        return DescriptorUnion.specs(specs)
    }
}
