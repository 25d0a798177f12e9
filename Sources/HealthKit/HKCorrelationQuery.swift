public import Foundation

/// Correlations of one type, as HealthKit's `HKCorrelationQuery`: those matching `predicate`
/// and, when `samplePredicates` is given, holding at least one sample that matches the
/// predicate given for its type (any entry may match). Each correlation comes back with all
/// of its samples. Results are oldest first.
///
/// What an app sees follows from its read permission for the types a correlation holds (a
/// correlation type has no permission of its own): a correlation is returned when every one of
/// its samples is readable — permission for the sample's type, or the app saved it. An app
/// allowed to read only systolic pressure therefore gets its own blood-pressure correlations
/// only, yet still every systolic sample through an `HKSampleQuery`.
public final class HKCorrelationQuery: HKQuery, @unchecked Sendable {
    public typealias CompletionHandler = @Sendable (HKCorrelationQuery, [HKCorrelation]?, (any Error)?) -> Void

    public let correlationType: HKCorrelationType
    public let samplePredicates: [HKSampleType: NSPredicate]?
    private let completion: CompletionHandler
    /// The query as the broker takes it, or why it cannot be sent (reported on execute).
    let spec: Result<CorrelationQuerySpec, HKError>

    @preconcurrency
    public init(type correlationType: HKCorrelationType, predicate: NSPredicate?,
                samplePredicates: [HKSampleType: NSPredicate]?, completion: @escaping CompletionHandler) {
        self.correlationType = correlationType
        self.samplePredicates = samplePredicates
        self.completion = completion
        spec = Result { () throws(HKError) in
            var objectPredicates: [String: SamplePredicate] = [:]
            for (type, predicate) in samplePredicates ?? [:] {
                objectPredicates[type.identifier] = try SamplePredicate(translating: predicate)
            }
            return CorrelationQuerySpec(
                typeIdentifier: correlationType.identifier,
                predicate: try predicate.map { (predicate) throws(HKError) in try SamplePredicate(translating: predicate) },
                objectPredicates: objectPredicates)
        }
        super.init(objectType: correlationType, predicate: predicate)
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                completion(self, try await connection.correlations(matching: try spec.get()), nil)
            } catch {
                completion(self, nil, error)
            }
        }
        if !started {
            Task { [self] in
                completion(self, nil, HKError(.errorInvalidArgument,
                                              "this HKCorrelationQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}
