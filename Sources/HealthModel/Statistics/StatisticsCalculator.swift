public import Foundation

/// Computes the statistics of one quantity type from samples grouped by source, sources in
/// priority order (highest first). Pure: the broker hands it the rows the caller may see.
///
/// - Sum (cumulative types): merged across sources by `SourceMerger`, then prorated by time to
///   the query's window and to each interval. With `.separateBySource`, each source's own sum
///   is its samples prorated the same way, without merging.
/// - Average, min, max (discrete types) and most recent: over every sample, from all sources
///   (as HealthKit does: merging applies to sums only); each sample belongs to the interval
///   holding its start date and counts whole there.
/// - Duration: the time the samples cover within the window and interval, each instant once.
///
/// An interval has data when a sample starts in it or shares time with it within the window;
/// only intervals with data get a result.
public struct StatisticsCalculator: Sendable {
    public let aggregationStyle: HKQuantityAggregationStyle
    public let options: HKStatisticsOptions

    /// The values a sample of the type may hold, in its canonical unit (`QuantityValueRanges`).
    /// Saves are checked against the same range; a stored value outside it (saved before the
    /// check existed) is left out of statistics, so a sum of bounded values stays finite.
    public let admissibleValues: ClosedRange<Double>?

    public init(aggregationStyle: HKQuantityAggregationStyle, options: HKStatisticsOptions,
                admissibleValues: ClosedRange<Double>? = nil) {
        self.aggregationStyle = aggregationStyle
        self.options = options
        self.admissibleValues = admissibleValues
    }

    public init(type: HKQuantityType, options: HKStatisticsOptions) {
        let range = QuantityValueRanges.range(for: HKQuantityTypeIdentifier(rawValue: type.identifier))
        self.init(aggregationStyle: type.aggregationStyle, options: options,
                  admissibleValues: range?.bounds(in: type.canonicalUnit))
    }

    /// `sources` without samples outside `admissibleValues` (or not finite). Copies only when
    /// something is left out, which a store written after the range check never needs.
    func admitted(_ sources: [SourceSamples]) -> [SourceSamples] {
        let bounds = admissibleValues ?? -QuantityValueRanges.ceiling...QuantityValueRanges.ceiling
        let allInside = sources.allSatisfy { source in source.samples.allSatisfy { bounds.contains($0.value) } }
        guard !allInside else { return sources }
        return sources.map { source in
            SourceSamples(source: source.source, samples: source.samples.filter { bounds.contains($0.value) })
        }
    }

    /// HKStatisticsQuery: the statistics of all the samples, or nil when there are none. The
    /// result spans `window` where it is bounded, else the samples' earliest start or latest end.
    public func statistics(of sources: [SourceSamples], window: TimeSpan?) -> StatisticsResult? {
        guard let extent = Self.extent(of: sources) else { return nil }
        // One interval holding every sample, its end past the last one so an instant there is inside.
        let grid = IntervalGrid(boundaries: [extent.start, extent.end + 1])
        guard var result = compute(sources, grid: grid, window: window).first else { return nil }
        let window = window ?? .unbounded
        let start = window.start == TimeSpan.unbounded.start ? extent.start : window.start
        let end = window.end == TimeSpan.unbounded.end ? extent.end : window.end
        result.span = TimeSpan(start: start, end: max(start, end))
        return result
    }

    /// HKStatisticsCollectionQuery: one result per interval with data, in time order.
    public func collection(of sources: [SourceSamples], window: TimeSpan?, anchor: Date, interval: StatisticsInterval,
                           timeZone: TimeZone) throws(HKError) -> [StatisticsResult] {
        guard let extent = Self.extent(of: sources) else { return [] }
        let grid = try IntervalGrid.covering(extent, anchor: anchor, interval: interval, timeZone: timeZone)
        return compute(sources, grid: grid, window: window)
    }

    /// One result per interval of `grid` that has data. Every sample must start inside the grid.
    public func compute(_ sources: [SourceSamples], grid: IntervalGrid, window: TimeSpan?) -> [StatisticsResult] {
        let sources = admitted(sources)
        let separate = options.contains(.separateBySource)
        let clip = window ?? .unbounded
        var merged = [StatisticsAccumulator](repeating: StatisticsAccumulator(), count: grid.count)
        var bySource = [[Int: StatisticsAccumulator]](repeating: [:], count: separate ? sources.count : 0)

        // Every sample marks the interval holding its start as having data. Only discrete
        // statistics (or a per-source result) need each sample's value accumulated there; a
        // merged sum or duration alone skips that work — a year of per-minute samples is half
        // a million of them. The results are the same either way: `values` reads the discrete
        // totals only for the options that ask for them.
        let accumulatesSamples = separate || !options.isDisjoint(with: Self.discreteOptions)
        for (sourceIndex, source) in sources.enumerated() {
            for sample in source.samples {
                guard let index = grid.index(containing: sample.span.start) else { continue }
                guard accumulatesSamples else {
                    merged[index].hasData = true
                    continue
                }
                merged[index].addDiscrete(sample, sourceIndex: sourceIndex, style: aggregationStyle)
                if separate { bySource[sourceIndex][index, default: StatisticsAccumulator()].addDiscrete(sample, sourceIndex: sourceIndex, style: aggregationStyle) }
            }
        }

        var coverage: [TimeSpanSet]?
        if options.contains(.cumulativeSum) {
            // Each merged piece is spread as it comes (no half-million-piece array); the
            // sources' own coverage is needed again only for the duration.
            let keepsCoverage = options.contains(.duration)
            let own = SourceMerger.forEachPiece(of: sources, keepingCoverage: keepsCoverage) { piece in
                Self.distribute(piece.span, piece.value, within: clip, over: grid) { index, amount in
                    merged[index].sum += amount
                    merged[index].hasData = true
                }
            }
            coverage = keepsCoverage ? own : nil
            if separate {
                for (sourceIndex, source) in sources.enumerated() {
                    for sample in source.samples {
                        Self.distribute(sample.span, sample.value, within: clip, over: grid) { index, amount in
                            bySource[sourceIndex][index, default: StatisticsAccumulator()].sum += amount
                            bySource[sourceIndex][index]!.hasData = true
                        }
                    }
                }
            }
        }

        if options.contains(.duration) {
            let perSource = coverage ?? sources.map { TimeSpanSet($0.samples.lazy.map(\.span)) }
            var union = TimeSpanSet()
            for own in perSource { union.formUnion(own) }
            Self.addDuration(of: union, within: clip, over: grid) { index, length in
                merged[index].duration += length
                merged[index].hasData = true
            }
            if separate {
                for (sourceIndex, own) in perSource.enumerated() {
                    Self.addDuration(of: own, within: clip, over: grid) { index, length in
                        bySource[sourceIndex][index, default: StatisticsAccumulator()].duration += length
                        bySource[sourceIndex][index]!.hasData = true
                    }
                }
            }
        }

        var results: [StatisticsResult] = []
        for index in 0..<grid.count where merged[index].hasData {
            var result = StatisticsResult(span: grid.span(at: index),
                                          merged: merged[index].values(options, style: aggregationStyle))
            if separate {
                for (sourceIndex, source) in sources.enumerated() {
                    guard let accumulator = bySource[sourceIndex][index], accumulator.hasData else { continue }
                    result.bySource.append(SourceStatistics(source: source.source,
                                                            values: accumulator.values(options, style: aggregationStyle)))
                }
            }
            results.append(result)
        }
        return results
    }

    /// The options whose values come from `StatisticsAccumulator.addDiscrete`.
    static let discreteOptions: HKStatisticsOptions = [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]

    /// The earliest start and latest end of all samples; nil when there are none.
    static func extent(of sources: [SourceSamples]) -> TimeSpan? {
        var start = Int64.max, end = Int64.min
        for source in sources {
            for sample in source.samples {
                start = min(start, sample.span.start)
                end = max(end, sample.span.end)
            }
        }
        return start <= end ? TimeSpan(start: start, end: end) : nil
    }

    /// Spreads `value`, which belongs to `span`, over the intervals in proportion to the time
    /// of `span` inside both the window and each interval. An instant goes whole to the
    /// interval holding it, if the window holds it.
    static func distribute(_ span: TimeSpan, _ value: Double, within window: TimeSpan, over grid: IntervalGrid,
                           _ add: (_ index: Int, _ amount: Double) -> Void) {
        if span.isInstant {
            if window.contains(span.start), let index = grid.index(containing: span.start) { add(index, value) }
            return
        }
        guard let inside = span.intersection(window) else { return }
        let length = Double(span.length)
        grid.forEachOverlap(of: inside) { index, overlap in add(index, value * Double(overlap) / length) }
    }

    private static func addDuration(of covered: TimeSpanSet, within window: TimeSpan, over grid: IntervalGrid,
                                    _ add: (_ index: Int, _ length: Int64) -> Void) {
        covered.forEachCovered(in: window) { part in grid.forEachOverlap(of: part, add) }
    }
}
