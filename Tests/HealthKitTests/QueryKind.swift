import Foundation
import HealthIPC
import HealthWire
@testable import HealthKit
import Synchronization

/// Every kind of query the SDK runs, described so that one set of lifecycle tests can drive
/// them all: how to make one whose handlers report what they receive, which broker method it
/// calls, and what a successful first answer from the broker looks like.
///
/// Handlers report `results` for a first answer, `update` for a later one and `error CODE` for
/// an error; a route's batches report only when done.
struct QueryKind: Sendable, CustomStringConvertible {
    enum Answer: Sendable {
        case unary([UInt8])
        case stream([[UInt8]])
    }

    let description: String
    let method: HealthStoreMethod
    /// Whether the query keeps running after its first answer, until stopped.
    let longRunning: Bool
    /// Whether a stream that ends without any message is a complete (empty) answer. For the
    /// others it is the broker's fault: their answers end with a message saying so (a done or
    /// end-of-delivery flag), and long-running ones never end by themselves.
    var anEmptyStreamIsAnAnswer = false
    let answer: Answer
    let make: @Sendable (_ report: @escaping @Sendable (String) -> Void) -> HKQuery

    static func describe(_ error: (any Error)?) -> String? {
        error.map { "error \(($0 as? HKError)?.code ?? .unknownError)" }
    }

    static let steps = HKQuantityType(.stepCount)
    static let hourOfJanuary1 = TimeSpan(start: 1_767_225_600_000_000, end: 1_767_229_200_000_000)

    static let all: [QueryKind] = [
        QueryKind(description: "HKSampleQuery", method: .querySamples, longRunning: false, anEmptyStreamIsAnAnswer: true,
                  answer: .stream([SampleList([]).wireBytes()])) { report in
            HKSampleQuery(sampleType: steps, predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: nil) { _, _, error in
                report(describe(error) ?? "results")
            }
        },
        QueryKind(description: "HKCorrelationQuery", method: .queryCorrelations, longRunning: false, anEmptyStreamIsAnAnswer: true,
                  answer: .stream([SampleList([]).wireBytes()])) { report in
            HKCorrelationQuery(type: HKCorrelationType(.bloodPressure), predicate: nil, samplePredicates: nil) { _, _, error in
                report(describe(error) ?? "results")
            }
        },
        QueryKind(description: "HKSourceQuery", method: .querySources, longRunning: false,
                  answer: .unary(SourceList([]).wireBytes())) { report in
            HKSourceQuery(sampleType: steps, samplePredicate: nil) { _, _, error in report(describe(error) ?? "results") }
        },
        QueryKind(description: "HKStatisticsQuery", method: .queryStatistics, longRunning: false,
                  answer: .unary(StatisticsResult(span: hourOfJanuary1, merged: StatisticsValues(sum: 1)).wireBytes())) { report in
            HKStatisticsQuery(quantityType: steps, quantitySamplePredicate: nil, options: .cumulativeSum) { _, _, error in
                report(describe(error) ?? "results")
            }
        },
        QueryKind(description: "HKStatisticsCollectionQuery", method: .queryStatisticsCollection, longRunning: false, anEmptyStreamIsAnAnswer: true,
                  answer: .stream([StatisticsBatch([]).wireBytes()])) { report in
            let query = collectionQuery()
            query.initialResultsHandler = { _, _, error in report(describe(error) ?? "results") }
            return query
        },
        QueryKind(description: "HKWorkoutRouteQuery", method: .queryRouteData, longRunning: false,
                  answer: .stream([RouteLocationBatch([], done: true).wireBytes()])) { report in
            HKWorkoutRouteQuery(route: route) { _, _, done, error in
                if let error = describe(error) { report(error) } else if done { report("results") }
            }
        },
        QueryKind(description: "HKAnchoredObjectQuery with updates", method: .queryAnchored, longRunning: true,
                  answer: .stream([AnchoredQueryBatch(samples: [], deletedObjects: [], endOfDelivery: true, anchor: [1]).wireBytes()])) { report in
            let query = HKAnchoredObjectQuery(type: steps, predicate: nil, anchor: nil, limit: HKObjectQueryNoLimit) { _, _, _, _, error in
                report(describe(error) ?? "results")
            }
            query.updateHandler = { _, _, _, _, error in report(describe(error) ?? "update") }
            return query
        },
        QueryKind(description: "HKObserverQuery", method: .observeChanges, longRunning: true,
                  answer: .stream([ObserverDelivery(observerID: 1, delivery: 1).wireBytes()])) { report in
            let updates = Mutex(0)
            return HKObserverQuery(sampleType: steps, predicate: nil) { _, completion, error in
                if let error = describe(error) {
                    report(error)
                    return
                }
                let first = updates.withLock { count in
                    defer { count += 1 }
                    return count == 0
                }
                report(first ? "results" : "update")
                completion()
            }
        },
        QueryKind(description: "HKStatisticsCollectionQuery with updates", method: .watchStatisticsCollection, longRunning: true,
                  answer: .stream([StatisticsCollectionDelivery(changed: [], emptiedStarts: [], endOfDelivery: true).wireBytes()])) { report in
            let query = collectionQuery()
            query.initialResultsHandler = { _, _, error in report(describe(error) ?? "results") }
            query.statisticsUpdateHandler = { _, _, _, error in report(describe(error) ?? "update") }
            return query
        },
        QueryKind(description: "HKActivitySummaryQuery with updates", method: .watchActivitySummaries, longRunning: true,
                  answer: .stream([ActivitySummaryBatch([], endOfDelivery: true).wireBytes()])) { report in
            let query = HKActivitySummaryQuery(predicate: nil) { _, _, error in report(describe(error) ?? "results") }
            query.updateHandler = { _, _, error in report(describe(error) ?? "update") }
            return query
        },
    ]

    private static func collectionQuery() -> HKStatisticsCollectionQuery {
        HKStatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: nil, options: .cumulativeSum,
                                    anchorDate: Date(timeIntervalSince1970: 1_767_225_600), intervalComponents: DateComponents(day: 1),
                                    timeZone: TimeZone(identifier: "UTC")!)
    }

    private static let route: HKWorkoutRoute = {
        let record = SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutRouteTypeIdentifier,
                                  startDate: Date(timeIntervalSince1970: 1_767_225_600), endDate: Date(timeIntervalSince1970: 1_767_229_200),
                                  value: .workoutRoute(locationCount: 0),
                                  source: SourceRecord(bundleIdentifier: "org.example.run", name: "Run"))
        return HKSample.fetchedRoute(record)
    }()
}

private extension HKSample {
    static func fetchedRoute(_ record: SampleRecord) -> HKWorkoutRoute {
        // A route record always makes an HKWorkoutRoute; anything else is a broken fixture.
        guard let route = try? fetched(record) as? HKWorkoutRoute else { preconditionFailure("not a route record") }
        return route
    }
}
