public import Foundation

/// Statistics over the samples of one quantity type, as HealthKit's `HKStatisticsQuery`. The
/// broker computes them over the samples this app may read, merging overlapping sources by the
/// user's source priority; the handler is called once.
///
/// A date-range predicate also sets the window cumulative values are prorated to: a sample that
/// straddles the range's start or end counts for the part of it inside.
public final class HKStatisticsQuery: HKQuery, @unchecked Sendable {
    public typealias CompletionHandler = @Sendable (HKStatisticsQuery, HKStatistics?, (any Error)?) -> Void

    public let quantityType: HKQuantityType
    public let options: HKStatisticsOptions
    private let completionHandler: CompletionHandler
    /// The query as the broker takes it, or why it cannot be sent (reported on execute, as
    /// HealthKit's initializer cannot fail).
    let spec: Result<StatisticsQuerySpec, HKError>

    /// - Parameters:
    ///   - options: `.cumulativeSum` for cumulative types (steps); `.discreteAverage`, `.discreteMin`,
    ///     `.discreteMax` for discrete ones (heart rate); `.mostRecent`, `.duration` and
    ///     `.separateBySource` for both. Others fail the query with `errorInvalidArgument`.
    ///     Defaults to none, as in HealthKit's Swift signature: the statistics then carry only
    ///     their dates, every quantity nil.
    @preconcurrency
    public init(quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?, options: HKStatisticsOptions = [],
                completionHandler: @escaping CompletionHandler) {
        self.quantityType = quantityType
        self.options = options
        self.completionHandler = completionHandler
        spec = Result { () throws(HKError) in
            try Self.spec(type: quantityType, predicate: quantitySamplePredicate, options: options)
        }
        super.init(objectType: quantityType, predicate: quantitySamplePredicate)
    }

    static func spec(type: HKQuantityType, predicate: NSPredicate?, options: HKStatisticsOptions) throws(HKError) -> StatisticsQuerySpec {
        let spec = StatisticsQuerySpec(
            typeIdentifier: type.identifier,
            predicate: try predicate.map { (predicate) throws(HKError) in try SamplePredicate(translating: predicate) },
            options: options)
        _ = try spec.validatedType()
        return spec
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                let result = try await connection.statistics(try spec.get())
                completionHandler(self, HKStatistics(type: quantityType, result: result,
                                                     separateBySource: options.contains(.separateBySource)), nil)
            } catch {
                completionHandler(self, nil, error)
            }
        }
        if !started {
            Task { [self] in
                completionHandler(self, nil, HKError(.errorInvalidArgument,
                                                     "this HKStatisticsQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}
