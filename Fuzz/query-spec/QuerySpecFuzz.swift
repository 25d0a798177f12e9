import Foundation
import HealthModel
import HealthWire

/// libFuzzer target: what healthd computes from a decoded query request before (and without)
/// reading the store — the checks every app gets the same answer to, then the calendar
/// arithmetic that lays out days and intervals. The first input byte picks the query kind
/// (`QuerySpecKind`), the rest is its request payload as an app sends it. Nothing may trap;
/// where an invariant is cheap it is checked (a grid's boundaries ascend and cover what it was
/// built for, a spec that passed the checks passes them again).
///
/// Where healthd needs stored data (the extent of the samples a collection or a summary covers),
/// the target stands in samples at the edges of what the store holds (1900-01-01 … 2200-01-01,
/// `SampleLimits.permittedDates`) and an ordinary day.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuerySpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1, let kind = QuerySpecKind(rawValue: data[0] % UInt8(QuerySpecKind.allCases.count)) else { return 0 }
    let payload = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch kind {
    case .activitySummaries: ActivitySummaryFuzz.run(payload)
    case .statisticsCollection: StatisticsFuzz.collection(payload)
    case .statistics: StatisticsFuzz.oneShot(payload)
    case .samples: SampleQueryFuzz.samples(payload)
    case .anchored: SampleQueryFuzz.anchored(payload)
    case .observer: SampleQueryFuzz.observer(payload)
    case .deletion: SampleQueryFuzz.deletion(payload)
    case .verifiableRecords: SampleQueryFuzz.verifiableRecords(payload)
    case .correlation: SampleQueryFuzz.correlation(payload)
    }
    return 0
}

/// The first byte of an input (modulo the number of kinds). Seeds: `FuzzSeedCorpusTests`.
enum QuerySpecKind: UInt8, CaseIterable {
    case activitySummaries      // QueryActivitySummaries, WatchActivitySummaries (ActivitySummaryQuerySpec)
    case statisticsCollection   // QueryStatisticsCollection, WatchStatisticsCollection (StatisticsCollectionSpec)
    case statistics             // QueryStatistics (StatisticsQuerySpec)
    case samples                // QuerySamples, the manager's too (SampleQuerySpec)
    case anchored               // AnchoredQuery (AnchoredQuerySpec)
    case observer               // ObserverQuery, SourceQuery (TypePredicateSpec)
    case deletion               // DeleteObjectsMatching (MatchingDeletion)
    case verifiableRecords      // QueryVerifiableRecords (VerifiableRecordQuerySpec)
    case correlation            // QueryCorrelations (CorrelationQuerySpec)
}

/// Stops the run with the oracle that failed (libFuzzer saves the input).
func violated(_ invariant: String) -> Never {
    fatalError("invariant violated: \(invariant)")
}

/// Where stored samples can lie: the store refuses dates outside 1900-01-01 … 2200-01-01.
enum StoredExtents {
    static let earliest = SampleLimits.earliestPermittedSampleDate.microsecondsSince1970
    static let latest = SampleLimits.latestPermittedSampleDate.microsecondsSince1970
    static let hour: Int64 = 3_600_000_000
    static let ordinary: Int64 = 1_700_000_000_000_000

    /// An hour at each end of the store's range, and one ordinary hour.
    static let spans = [
        TimeSpan(start: earliest, end: earliest + hour),
        TimeSpan(start: ordinary, end: ordinary + hour),
        TimeSpan(start: latest - hour, end: latest),
    ]
}
