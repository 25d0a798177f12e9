public import Foundation

/// Samples of one type, filtered, sorted and limited, as HealthKit's `HKSampleQuery`. The
/// broker streams the matches in batches; the handler is called once, with all of them.
/// With `queryDescriptors` (iOS 15), the samples matching any descriptor, each once: the
/// descriptors are read as their union (`DescriptorUnion`: one query per type, its predicate any
/// of that type's descriptors'), each type under its own read grant, merged by `SampleQueryMerge`.
public final class HKSampleQuery: HKQuery, @unchecked Sendable {
    public typealias ResultsHandler = @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void

    public let limit: Int
    public let sortDescriptors: [NSSortDescriptor]?
    private let resultsHandler: ResultsHandler
    /// The query as the broker takes it, or why it cannot be sent. Worked out here because
    /// HealthKit's initializer cannot fail; the error reaches the handler on execute.
    let spec: Result<SampleQuerySpec, HKError>
    /// One query per type of the descriptors' union (`init(queryDescriptors:…)`); nil for the one-type form.
    private let descriptorSpecs: Result<[SampleQuerySpec], HKError>?

    /// - Parameters:
    ///   - limit: the most samples to return; `HKObjectQueryNoLimit` (0) for all.
    ///   - sortDescriptors: `NSSortDescriptor(key: HKSampleSortIdentifierStartDate or …EndDate, ascending:)`.
    @preconcurrency
    public init(sampleType: HKSampleType, predicate: NSPredicate?, limit: Int, sortDescriptors: [NSSortDescriptor]?,
                resultsHandler: @escaping ResultsHandler) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.resultsHandler = resultsHandler
        spec = Result { () throws(HKError) in
            try Self.spec(type: sampleType, predicate: predicate, limit: limit, sortDescriptors: sortDescriptors ?? [])
        }
        descriptorSpecs = nil
        super.init(objectType: sampleType, predicate: predicate)
    }

    /// Samples matching any of the descriptors (each its type and predicate), each once, in no
    /// particular order: the types follow each other in the order the descriptors first name
    /// them. developer.apple.com/documentation/
    /// healthkit/hksamplequery/init(querydescriptors:limit:resultshandler:)
    @preconcurrency
    public convenience init(queryDescriptors: [HKQueryDescriptor], limit: Int, resultsHandler: @escaping ResultsHandler) {
        self.init(queryDescriptors: queryDescriptors, limit: limit, sortDescriptors: [], resultsHandler: resultsHandler)
    }

    /// Samples matching any of the descriptors, each once, sorted across types by
    /// `sortDescriptors` (ties in descriptor order) and cut to `limit`. developer.apple.com/documentation/healthkit/
    /// hksamplequery/init(querydescriptors:limit:sortdescriptors:resultshandler:)
    @preconcurrency
    public init(queryDescriptors: [HKQueryDescriptor], limit: Int, sortDescriptors: [NSSortDescriptor],
                resultsHandler: @escaping ResultsHandler) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.resultsHandler = resultsHandler
        let specs = Result { () throws(HKError) in
            guard !queryDescriptors.isEmpty else {
                throw HKError(.errorInvalidArgument, "an HKSampleQuery needs at least one HKQueryDescriptor")
            }
            let specs = try queryDescriptors.map { (descriptor) throws(HKError) in
                try Self.spec(type: descriptor.sampleType, predicate: descriptor.predicate, limit: limit, sortDescriptors: sortDescriptors)
            }
            return DescriptorUnion.specs(specs)
        }
        descriptorSpecs = specs
        spec = specs.map { $0[0] }
        super.init(objectType: queryDescriptors.count == 1 ? queryDescriptors.first?.sampleType : nil,
                   predicate: queryDescriptors.count == 1 ? queryDescriptors.first?.predicate : nil)
    }

    static func spec(type: HKSampleType, predicate: NSPredicate?, limit: Int,
                     sortDescriptors: [NSSortDescriptor]) throws(HKError) -> SampleQuerySpec {
        guard limit >= 0 else {
            throw HKError(.errorInvalidArgument, "limit must be HKObjectQueryNoLimit (0) or positive, got \(limit)")
        }
        guard sortDescriptors.count <= Self.maxSortDescriptors else {
            throw HKError(.errorInvalidArgument, "at most \(Self.maxSortDescriptors) sort descriptors, got \(sortDescriptors.count)")
        }
        let spec = SampleQuerySpec(
            typeIdentifier: type.identifier,
            predicate: try predicate.map { (predicate) throws(HKError) in try SamplePredicate(translating: predicate) },
            sort: try sortDescriptors.map { (descriptor) throws(HKError) in try SampleSort(translating: descriptor) },
            limit: limit)
        try spec.checkSort()
        return spec
    }

    /// The protocol's limit (SampleQuerySpec decoding refuses more); checked here for a clear error.
    private static let maxSortDescriptors = 4

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                guard let descriptorSpecs else {
                    return resultsHandler(self, try await connection.samples(matching: try spec.get()), nil)
                }
                let specs = try descriptorSpecs.get()
                var results: [[HKSample]] = []
                for spec in specs { results.append(try await connection.samples(matching: spec)) }
                resultsHandler(self, SampleQueryMerge.merged(results, sorts: specs[0].sort, limit: limit), nil)
            } catch {
                resultsHandler(self, nil, error)
            }
        }
        if !started {
            Task { [self] in
                resultsHandler(self, nil, HKError(.errorInvalidArgument,
                                                  "this HKSampleQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}

/// HealthKit's "no limit" for sample queries.
public let HKObjectQueryNoLimit = 0
