import Foundation
import Testing

@testable import HealthModel

/// Statistics of the most extreme data the store accepts are finite numbers, in the canonical
/// unit and in every unit an app may ask for them in (`ConvertedValueJunkTests.accepted`).
/// Generated per quantity type (its aggregation style decides the options): many samples at the
/// range's upper bound, at its lower bound, and mixed; each sample spanning the whole permitted
/// window 1900–2200, or an instant (no duration: the time-weighted averages' zero weight); in
/// one source and in many; with `.separateBySource`, over one interval and as a yearly
/// collection. Rule: sums stay finite because every range is finite (`QuantityValueRange`) and
/// so is the number of rows, so no input needs refusing and nothing is saturated.
@Suite(.timeLimit(.minutes(10))) struct StatisticsExtremeTests {
    static let earliest = SampleLimits.earliestPermittedSampleDate.microsecondsSince1970
    static let latest = SampleLimits.latestPermittedSampleDate.microsecondsSince1970

    enum Shape: CaseIterable { case wholeWindow, instants, mixed }

    static func sources(_ bounds: ClosedRange<Double>, shape: Shape, count: Int, sourceCount: Int) -> [SourceSamples] {
        (0 ..< sourceCount).map { sourceIndex in
            let samples = (0 ..< count).map { index -> StatisticsSample in
                let value = index.isMultiple(of: 2) || shape != .mixed ? bounds.upperBound : bounds.lowerBound
                switch shape {
                case .wholeWindow: return StatisticsSample(start: earliest, end: latest, value: value)
                case .instants: return StatisticsSample(start: earliest + Int64(index), end: earliest + Int64(index), value: value)
                case .mixed:
                    return index.isMultiple(of: 3) ? StatisticsSample(start: earliest + Int64(index), end: earliest + Int64(index), value: value)
                        : StatisticsSample(start: earliest + Int64(index), end: latest, value: value)
                }
            }
            return SourceSamples(source: SourceRecord(bundleIdentifier: "org.test.s\(sourceIndex)", name: "s\(sourceIndex)"),
                                 samples: samples)
        }
    }

    static func values(of results: [StatisticsResult]) -> [(String, Double)] {
        results.flatMap { result in
            ([result.merged] + result.bySource.map(\.values)).flatMap { values -> [(String, Double)] in
                [("sum", values.sum), ("average", values.average), ("minimum", values.minimum), ("maximum", values.maximum),
                 ("most recent", values.mostRecent?.value), ("duration", values.duration)]
                    .compactMap { name, value in value.map { (name, $0) } }
            }
        }
    }

    @Test(arguments: Shape.allCases)
    func statisticsOfExtremeSamplesAreFiniteInEveryUnit(_ shape: Shape) throws {
        var checked = 0
        for row in QuantityValueRanges.all {
            guard let type = HKObjectType.type(forIdentifier: row.identifier.rawValue) as? HKQuantityType,
                  let bounds = row.bounds(in: type.canonicalUnit) else { continue }
            let options: HKStatisticsOptions = type.aggregationStyle == .cumulative
                ? [.cumulativeSum, .mostRecent, .duration, .separateBySource]
                : [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .duration, .separateBySource]
            let calculator = StatisticsCalculator(type: type, options: options)
            let units = ConvertedValueJunkTests.accepted.filter { type.is(compatibleWith: $0.unit) }
            for (count, sourceCount) in [(1, 1), (2_000, 1), (200, 10)] {
                let sources = Self.sources(bounds, shape: shape, count: count, sourceCount: sourceCount)
                var results = calculator.statistics(of: sources, window: nil).map { [$0] } ?? []
                results += try calculator.collection(of: sources, window: nil, anchor: SampleLimits.earliestPermittedSampleDate,
                                                     interval: StatisticsInterval(months: 1_200), timeZone: TimeZone(identifier: "UTC")!)
                #expect(!results.isEmpty, "\(row.identifier.rawValue)")
                let values = Self.values(of: results)
                for (name, value) in values {
                    #expect(value.isFinite, "\(row.identifier.rawValue) \(shape) × \(count) × \(sourceCount): \(name) \(value)")
                }
                // The largest statistic in every unit (a smaller one converts to a smaller number).
                let largest = values.filter { $0.0 != "duration" }.map { abs($0.1) }.max() ?? 0
                for (text, unit) in units {
                    let converted = try HKQuantity(unit: type.canonicalUnit, doubleValue: largest).value(in: unit)
                    #expect(converted.isFinite, "\(row.identifier.rawValue): \(largest) \(type.canonicalUnit.unitString) is \(converted) \(text)")
                    checked += 1
                }
            }
        }
        #expect(checked > 1_000)
    }
}
