import Foundation
import HealthModel
import HealthWire

/// Statistics as `StatisticsComputation` computes them after its one read: the spec's checks
/// (`StatisticsCollectionSpec.validate`, `StatisticsQuerySpec.validatedType`), the predicate as
/// the store compiles it (`canonicalPredicate`), the prorating window (`statisticsWindow`), the
/// interval grid over the samples' extent (`IntervalGrid.covering`, stood in for by
/// `StoredExtents` and the anchor's own hour) and the per-interval computation.
enum StatisticsFuzz {
    static let source = SourceRecord(bundleIdentifier: "org.example.fuzz", name: "Fuzz")

    static func collection(_ payload: [UInt8]) {
        guard let spec = try? StatisticsCollectionSpec(wire: payload) else { return }
        do { try spec.validate() } catch { return }
        do { try spec.validate() } catch { violated("a statistics collection spec that validated did not again: \(error)") }
        guard let type = try? spec.statistics.validatedType(), let timeZone = try? spec.timeZone() else {
            violated("a validated collection spec has no type or time zone")
        }
        guard (try? SampleQuerySpec(typeIdentifier: type.identifier, predicate: spec.statistics.predicate).canonicalPredicate()) != nil else { return }
        let window = spec.statistics.predicate?.statisticsWindow
        let calculator = StatisticsCalculator(type: type, options: spec.statistics.options)
        let anchor = spec.anchor.microsecondsSince1970
        let anchorHour = TimeSpan(start: anchor, end: min(anchor + StoredExtents.hour, StoredExtents.latest))
        for extent in StoredExtents.spans + [anchorHour] {
            guard let grid = try? IntervalGrid.covering(extent, anchor: spec.anchor, interval: spec.interval, timeZone: timeZone) else { continue }
            check(grid, covers: extent)
            let samples = [StatisticsSample(span: extent, value: 1.5), StatisticsSample(start: extent.start, end: extent.start, value: 0.5)]
            let results = calculator.compute([SourceSamples(source: source, samples: samples)], grid: grid, window: window)
            guard results.count <= grid.count else { violated("\(results.count) results for \(grid.count) intervals") }
        }
    }

    static func oneShot(_ payload: [UInt8]) {
        guard let spec = try? StatisticsQuerySpec(wire: payload), let type = try? spec.validatedType() else { return }
        guard (try? spec.validatedType()) != nil else { violated("a statistics spec that validated did not again") }
        guard (try? SampleQuerySpec(typeIdentifier: type.identifier, predicate: spec.predicate).canonicalPredicate()) != nil else { return }
        let window = spec.predicate?.statisticsWindow
        let calculator = StatisticsCalculator(type: type, options: spec.options)
        for extent in StoredExtents.spans {
            let samples = [StatisticsSample(span: extent, value: 1.5), StatisticsSample(start: extent.end, end: extent.end, value: 0.5)]
            _ = calculator.statistics(of: [SourceSamples(source: source, samples: samples)], window: window)
        }
    }

    /// `IntervalGrid`'s own promise: boundaries strictly ascend, at most `maxIntervals`
    /// intervals, and the extent's start and end both lie inside the grid.
    static func check(_ grid: IntervalGrid, covers extent: TimeSpan) {
        let boundaries = grid.boundaries
        guard grid.count >= 1, grid.count <= StatisticsLimits.maxIntervals else { violated("\(grid.count) intervals in a grid") }
        for index in 1..<boundaries.count where boundaries[index] <= boundaries[index - 1] {
            violated("interval boundaries do not ascend at \(index): \(boundaries[index - 1]) then \(boundaries[index])")
        }
        guard grid.index(containing: extent.start) != nil, grid.index(containing: extent.end) != nil else {
            violated("a grid built to cover \(extent) does not hold its ends (\(boundaries[0]) … \(boundaries[grid.count]))")
        }
    }
}
