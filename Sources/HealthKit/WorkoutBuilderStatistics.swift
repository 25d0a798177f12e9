import Foundation

/// The statistics a workout builder reports and saves for one quantity type: computed here, from
/// the samples the builder holds, by the same `StatisticsCalculator` healthd uses — a sum for a
/// cumulative type, average, minimum, maximum and most recent for a discrete one — over the
/// builder's interval (prorating samples that straddle it, as a statistics query would).
/// Sources are ordered by bundle identifier: the builder has no access to the user's source
/// priority, which only matters when two sources' samples of one cumulative type overlap.
enum WorkoutBuilderStatistics {
    static func statistics(of type: HKQuantityType, samples: [HKQuantitySample], from start: Date,
                           to end: Date) -> HKStatistics? {
        let options: HKStatisticsOptions = type.aggregationStyle == .cumulative
            ? [.cumulativeSum]
            : [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]
        let calculator = StatisticsCalculator(type: type, options: options)
        let bySource = Dictionary(grouping: samples.filter { $0.quantityType == type }) {
            $0.sourceRevision.source.bundleIdentifier
        }
        let sources = bySource.keys.sorted().map { bundle in
            let samples = (bySource[bundle] ?? []).sorted { $0.startDate < $1.startDate }
            let name = samples.first?.sourceRevision.source.name ?? bundle
            return SourceSamples(source: SourceRecord(bundleIdentifier: bundle, name: name),
                                 samples: samples.map { sample in
                                     StatisticsSample(start: sample.startDate.microsecondsSince1970,
                                                      end: sample.endDate.microsecondsSince1970,
                                                      value: sample.quantity.doubleValue(for: type.canonicalUnit))
                                 })
        }
        let window = TimeSpan(start: start.microsecondsSince1970, end: max(start, end).microsecondsSince1970)
        guard let result = calculator.statistics(of: sources, window: window) else { return nil }
        return HKStatistics(type: type, result: result, separateBySource: false)
    }

    static func all(of samples: [HKQuantitySample], from start: Date, to end: Date) -> [HKQuantityType: HKStatistics] {
        var result: [HKQuantityType: HKStatistics] = [:]
        for type in Set(samples.map(\.quantityType)) {
            result[type] = statistics(of: type, samples: samples, from: start, to: end)
        }
        return result
    }
}
