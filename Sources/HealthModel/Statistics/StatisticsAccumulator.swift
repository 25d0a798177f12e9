import Foundation

/// Running totals for one interval (or one source within it), turned into `StatisticsValues`
/// at the end. Discrete statistics see every sample assigned to the interval; the sum and the
/// duration are added from outside, already merged and prorated.
struct StatisticsAccumulator {
    var hasData = false
    var sum = 0.0
    /// Microseconds covered, each instant once.
    var duration: Int64 = 0
    private var count = 0
    /// Sum of the averaged values: the values themselves, or their energies (10^(L/10)) for
    /// an equivalent continuous level.
    private var total = 0.0
    private var weightedTotal = 0.0
    /// Sum of the samples' durations in seconds: the weights of a time-weighted average.
    private var weight = 0.0
    private var minimum = Double.infinity
    private var maximum = -Double.infinity
    private var mostRecent: (value: Double, span: TimeSpan, sourceIndex: Int)?

    /// Adds a sample to the discrete statistics (average, min, max, most recent). Sources
    /// arrive in priority order, so the tie rule for the most recent sample reads: the later
    /// end, then the later start, then the higher-priority source, then the later-saved sample.
    mutating func addDiscrete(_ sample: StatisticsSample, sourceIndex: Int, style: HKQuantityAggregationStyle) {
        hasData = true
        let averaged = style == .discreteEquivalentContinuousLevel ? pow(10, sample.value / 10) : sample.value
        let seconds = Double(sample.span.length) / 1_000_000
        count += 1
        total += averaged
        weightedTotal += averaged * seconds
        weight += seconds
        minimum = min(minimum, sample.value)
        maximum = max(maximum, sample.value)
        if let current = mostRecent {
            let span = sample.span
            let later = span.end > current.span.end
                || (span.end == current.span.end && (span.start > current.span.start
                    || (span.start == current.span.start && sourceIndex == current.sourceIndex)))
            if !later { return }
        }
        mostRecent = (sample.value, sample.span, sourceIndex)
    }

    func values(_ options: HKStatisticsOptions, style: HKQuantityAggregationStyle) -> StatisticsValues {
        var values = StatisticsValues()
        if options.contains(.cumulativeSum) { values.sum = sum }
        if options.contains(.duration) { values.duration = Double(duration) / 1_000_000 }
        guard count > 0 else { return values }
        if options.contains(.discreteAverage) { values.average = average(style) }
        if options.contains(.discreteMin) { values.minimum = minimum }
        if options.contains(.discreteMax) { values.maximum = maximum }
        if options.contains(.mostRecent), let mostRecent {
            values.mostRecent = StatisticsValues.MostRecent(value: mostRecent.value, span: mostRecent.span)
        }
        return values
    }

    /// Arithmetic for `discreteArithmetic`; weighted by each sample's duration for the
    /// temporally weighted and equivalent-level styles — where, when every sample is an
    /// instant (no weight at all), each counts equally instead.
    private func average(_ style: HKQuantityAggregationStyle) -> Double {
        let mean = style == .discreteArithmetic || weight == 0 ? total / Double(count) : weightedTotal / weight
        return style == .discreteEquivalentContinuousLevel ? 10 * log10(mean) : mean
    }
}
