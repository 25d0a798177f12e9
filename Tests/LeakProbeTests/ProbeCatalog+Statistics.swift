import Foundation
import HealthModel
import HealthWire

/// Statistics and statistics collections: every option, per source, and predicates that match
/// only hidden samples (where HealthKit answers errorNoData, or an empty collection).
extension ProbeCatalog {
    /// Steps the hidden app saved over [30, 40) minutes and nobody else did.
    static let hiddenStepsOnly = SamplePredicate.dateRange(start: ProbeData.time(31), end: ProbeData.time(39), strictStart: true, strictEnd: true)
    /// Heart rate only the hidden app saved ([60, 61) minutes).
    static let hiddenHeartRateOnly = SamplePredicate.dateRange(start: ProbeData.time(58), end: ProbeData.time(62), strictStart: false, strictEnd: false)
    /// Midnight UTC before every sample.
    static let dayAnchor = Date(timeIntervalSince1970: 1_699_920_000)

    static let statistics: [ProbeCall] = [
        statisticsQuery("statistics: step sum", steps, [.cumulativeSum]),
        statisticsQuery("statistics: step sum by source", steps, [.cumulativeSum, .separateBySource]),
        statisticsQuery("statistics: step duration", steps, [.duration]),
        statisticsQuery("statistics: most recent step count", steps, [.mostRecent, .separateBySource]),
        statisticsQuery("statistics: step sum, dates of hidden samples only", steps, [.cumulativeSum], hiddenStepsOnly),
        statisticsQuery("statistics: step sum in part of a hidden sample", steps,
                        [.cumulativeSum, .duration],
                        .dateRange(start: ProbeData.time(5), end: ProbeData.time(15), strictStart: false, strictEnd: false)),
        statisticsQuery("statistics: heart rate average, min, max", heartRate, [.discreteAverage, .discreteMin, .discreteMax]),
        statisticsQuery("statistics: heart rate by source", heartRate, [.discreteAverage, .discreteMax, .separateBySource]),
        statisticsQuery("statistics: most recent heart rate", heartRate, [.mostRecent]),
        statisticsQuery("statistics: heart rate, dates of hidden samples only", heartRate, [.discreteAverage, .mostRecent], hiddenHeartRateOnly),
        statisticsQuery("statistics: heart rate, hidden UUIDs", heartRate, [.discreteMin], nil) { .uuids(Set($0.hidden.samples)) },
        statisticsQuery("statistics: heart rate, source is the hidden app", heartRate, [.discreteMin]) { .sources([$0.hiddenApp]) },
        statisticsQuery("statistics: a type nobody saved", HKQuantityTypeIdentifier.bodyMass.rawValue, [.discreteAverage]),
        statisticsQuery("statistics: sum of a discrete type", heartRate, [.cumulativeSum]),
        collection("collection: daily step sums", steps, [.cumulativeSum], StatisticsInterval(days: 1)),
        collection("collection: 10-minute step sums and durations by source", steps, [.cumulativeSum, .duration, .separateBySource],
                   StatisticsInterval(minutes: 10), zone: "Europe/Berlin"),
        collection("collection: 5-minute step sums", steps, [.cumulativeSum], StatisticsInterval(minutes: 5)),
        collection("collection: hourly heart rate", heartRate, [.discreteAverage, .discreteMin, .mostRecent], StatisticsInterval(hours: 1)),
        collection("collection: 15-minute heart rate by source", heartRate, [.discreteMax, .separateBySource], StatisticsInterval(minutes: 15)),
        collection("collection: steps, dates of hidden samples only", steps, [.cumulativeSum], StatisticsInterval(minutes: 1),
                   predicate: hiddenStepsOnly),
        collection("collection: an interval of nothing", steps, [.cumulativeSum], StatisticsInterval()),
        collection("collection: an unknown time zone", steps, [.cumulativeSum], StatisticsInterval(days: 1), zone: "Mars/Olympus"),
    ]

    static func statisticsQuery(_ name: String, _ type: String, _ options: HKStatisticsOptions, _ predicate: SamplePredicate? = nil,
                                _ inputPredicate: (@Sendable (ProbeInputs) -> SamplePredicate)? = nil) -> ProbeCall {
        .unary(name, .queryStatistics) { inputs in
            StatisticsQuerySpec(typeIdentifier: type, predicate: inputPredicate?(inputs) ?? predicate, options: options).wireBytes()
        }
    }

    static func collection(_ name: String, _ type: String, _ options: HKStatisticsOptions, _ interval: StatisticsInterval,
                           zone: String = "UTC", predicate: SamplePredicate? = nil) -> ProbeCall {
        .stream(name, .queryStatisticsCollection) { _ in
            StatisticsCollectionSpec(statistics: StatisticsQuerySpec(typeIdentifier: type, predicate: predicate, options: options),
                                     anchor: dayAnchor, interval: interval, timeZoneIdentifier: zone).wireBytes()
        }
    }
}
