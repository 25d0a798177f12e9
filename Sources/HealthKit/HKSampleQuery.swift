public import Foundation

/// Samples of one type, filtered, sorted and limited, as HealthKit's `HKSampleQuery`. The
/// broker streams the matches in batches; the handler is called once, with all of them.
public final class HKSampleQuery: HKQuery, @unchecked Sendable {
    public typealias ResultsHandler = @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void

    public let limit: Int
    public let sortDescriptors: [NSSortDescriptor]?
    private let resultsHandler: ResultsHandler
    /// The query as the broker takes it, or why it cannot be sent. Worked out here because
    /// HealthKit's initializer cannot fail; the error reaches the handler on execute.
    let spec: Result<SampleQuerySpec, HKError>

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
        super.init(objectType: sampleType, predicate: predicate)
    }

    static func spec(type: HKSampleType, predicate: NSPredicate?, limit: Int,
                     sortDescriptors: [NSSortDescriptor]) throws(HKError) -> SampleQuerySpec {
        guard limit >= 0 else {
            throw HKError(.errorInvalidArgument, "limit must be HKObjectQueryNoLimit (0) or positive, got \(limit)")
        }
        guard sortDescriptors.count <= Self.maxSortDescriptors else {
            throw HKError(.errorInvalidArgument, "at most \(Self.maxSortDescriptors) sort descriptors, got \(sortDescriptors.count)")
        }
        return SampleQuerySpec(
            typeIdentifier: type.identifier,
            predicate: try predicate.map { (predicate) throws(HKError) in try SamplePredicate(translating: predicate) },
            sort: try sortDescriptors.map { (descriptor) throws(HKError) in try SampleSort(translating: descriptor) },
            limit: limit)
    }

    /// The protocol's limit (SampleQuerySpec decoding refuses more); checked here for a clear error.
    private static let maxSortDescriptors = 4

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                resultsHandler(self, try await connection.samples(matching: try spec.get()), nil)
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
