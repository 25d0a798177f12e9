import HealthModel
import HealthStore

/// Statistics as a function of (request, scope): read the rows the scope admits, compute. The
/// handlers call it once; a long-running query can call it again whenever the type's data
/// changes, with the scope re-read so a revoked grant applies at once.
///
/// Requests reach here validated (`StatisticsQuerySpec.validatedType`,
/// `StatisticsCollectionSpec.validate`): no error below depends on data the caller cannot see.
enum StatisticsComputation {
    /// What one computation read and produced.
    struct Outcome<Result: Sendable>: Sendable {
        var result: Result
        /// Samples the statistics were computed from (the access log's count).
        var sampleCount: Int
    }

    /// HKStatisticsQuery: nil when no sample the scope admits matches.
    static func statistics(_ spec: StatisticsQuerySpec, type: HKQuantityType, scope: Visibility,
                           in database: HealthDatabase) throws -> Outcome<StatisticsResult?> {
        let sources = try database.statistics.samples(typeIdentifier: spec.typeIdentifier, predicate: spec.predicate, scope: scope)
        let result = StatisticsCalculator(type: type, options: spec.options)
            .statistics(of: sources, window: spec.predicate?.statisticsWindow)
        return Outcome(result: result, sampleCount: sources.sampleCount)
    }

    /// HKStatisticsCollectionQuery: the intervals that hold data, in time order. `snapshot`: a
    /// stream's, when the collection may be computed again (`StreamVisibility`).
    static func collection(_ spec: StatisticsCollectionSpec, type: HKQuantityType, scope: Visibility,
                           within snapshot: ReadSnapshot? = nil, in database: HealthDatabase) throws -> Outcome<[StatisticsResult]> {
        let query = spec.statistics
        let sources = try database.statistics.samples(typeIdentifier: query.typeIdentifier, predicate: query.predicate, scope: scope,
                                                      within: snapshot)
        let results = try StatisticsCalculator(type: type, options: query.options)
            .collection(of: sources, window: query.predicate?.statisticsWindow, anchor: spec.anchor,
                        interval: spec.interval, timeZone: spec.timeZone())
        return Outcome(result: results, sampleCount: sources.sampleCount)
    }
}

private extension [SourceSamples] {
    var sampleCount: Int { reduce(0) { $0 + $1.samples.count } }
}
