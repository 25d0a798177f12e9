import Foundation
import Testing
@testable import HealthModel

/// Statistics over hand-computed fixtures (times in seconds, values in canonical units).
@Suite(.timeLimit(.minutes(10))) struct StatisticsCalculatorTests {
    let watch = Fixture.source("watch", [Fixture.sample(0, 60, 60)])
    let phone = Fixture.source("phone", [Fixture.sample(30, 90, 90)])

    func cumulative(_ options: HKStatisticsOptions) -> StatisticsCalculator {
        StatisticsCalculator(aggregationStyle: .cumulative, options: options)
    }

    @Test func mergedSumAndPerSourceSums() throws {
        let result = try #require(cumulative([.cumulativeSum, .separateBySource]).statistics(of: [watch, phone], window: nil))
        #expect(result.merged.sum == 105)
        #expect(result.bySource.map(\.source.bundleIdentifier) == ["watch", "phone"])
        #expect(result.bySource.map(\.values.sum) == [60, 90])  // unmerged
        #expect(result.span == Fixture.span(0, 90))  // no window: the samples' extent
        let reversed = try #require(cumulative(.cumulativeSum).statistics(of: [phone, watch], window: nil))
        #expect(reversed.merged.sum == 120)
        #expect(reversed.bySource.isEmpty)
    }

    @Test func aWindowProratesTheSamplesItCuts() throws {
        // Window [45, 75): watch keeps [45, 60) → 15; phone's merged piece [60, 90) (45) keeps
        // [60, 75) → 22.5. Alone, the phone's [30, 90) keeps [45, 75) → 45.
        let window = Fixture.span(45, 75)
        let result = try #require(cumulative([.cumulativeSum, .separateBySource]).statistics(of: [watch, phone], window: window))
        #expect(result.merged.sum == 37.5)
        #expect(result.bySource.map(\.values.sum) == [15, 45])
        #expect(result.span == window)
    }

    @Test func noSamplesNoStatistics() {
        #expect(cumulative(.cumulativeSum).statistics(of: [], window: nil) == nil)
        #expect(cumulative(.cumulativeSum).statistics(of: [Fixture.source("empty", [])], window: nil) == nil)
    }

    @Test func durationCountsEachInstantOnce() throws {
        let result = try #require(cumulative([.duration, .separateBySource]).statistics(of: [watch, phone], window: nil))
        #expect(result.merged.duration == 90)
        #expect(result.bySource.map(\.values.duration) == [60, 60])
        #expect(result.merged.sum == nil)  // not asked for
    }

    @Test func arithmeticAverageMinMax() throws {
        let scale = Fixture.source("scale", [Fixture.sample(0, 0, 70), Fixture.sample(100, 100, 72)])
        let other = Fixture.source("other", [Fixture.sample(50, 50, 80)])
        let calculator = StatisticsCalculator(aggregationStyle: .discreteArithmetic,
                                              options: [.discreteAverage, .discreteMin, .discreteMax, .separateBySource])
        let result = try #require(calculator.statistics(of: [scale, other], window: nil))
        // Every sample of every source counts: (70 + 72 + 80) / 3 = 74.
        #expect(result.merged.average == 74)
        #expect(result.merged.minimum == 70)
        #expect(result.merged.maximum == 80)
        #expect(result.bySource.map(\.values.average) == [71, 80])
    }

    @Test func temporallyWeightedAverage() throws {
        let calculator = StatisticsCalculator(aggregationStyle: .discreteTemporallyWeighted, options: .discreteAverage)
        // 60 bpm for 60 s and 90 bpm for 120 s: (3600 + 10800) / 180 = 80.
        let timed = Fixture.source("strap", [Fixture.sample(0, 60, 60), Fixture.sample(60, 180, 90)])
        #expect(calculator.statistics(of: [timed], window: nil)?.merged.average == 80)
        // Only instants: each counts equally, (60 + 90) / 2.
        let instants = Fixture.source("watch", [Fixture.sample(0, 0, 60), Fixture.sample(10, 10, 90)])
        #expect(calculator.statistics(of: [instants], window: nil)?.merged.average == 75)
        // Mixed: the instants have no weight next to the timed samples.
        #expect(calculator.statistics(of: [timed, instants], window: nil)?.merged.average == 80)
    }

    @Test func equivalentContinuousLevelAveragesEnergies() throws {
        let calculator = StatisticsCalculator(aggregationStyle: .discreteEquivalentContinuousLevel, options: .discreteAverage)
        let exposure = Fixture.source("headphones", [Fixture.sample(0, 60, 80), Fixture.sample(60, 120, 90)])
        // 10 log10((10^8 + 10^9) / 2) = 10 log10(5.5e8) ≈ 87.4036 dB.
        let average = try #require(calculator.statistics(of: [exposure], window: nil)?.merged.average)
        #expect(abs(average - 87.40362689) < 1e-6)
    }

    @Test func mostRecentIsTheLatestEndThenStartThenPriority() throws {
        let calculator = StatisticsCalculator(aggregationStyle: .discreteArithmetic, options: [.mostRecent, .separateBySource])
        let a = Fixture.source("a", [Fixture.sample(0, 100, 1), Fixture.sample(50, 100, 2)])
        let b = Fixture.source("b", [Fixture.sample(50, 100, 3), Fixture.sample(10, 20, 4)])
        let result = try #require(calculator.statistics(of: [a, b], window: nil))
        // Ends tie at 100; starts tie at 50 between a's 2 and b's 3; a has priority.
        #expect(result.merged.mostRecent == .init(value: 2, span: Fixture.span(50, 100)))
        #expect(result.bySource.map(\.values.mostRecent?.value) == [2, 3])
        let swapped = try #require(calculator.statistics(of: [b, a], window: nil))
        #expect(swapped.merged.mostRecent?.value == 3)
    }

    @Test func dailyBucketsProrateACumulativeSampleAcrossMidnight() throws {
        // 120 steps from 23:00 to 01:00 UTC: 60 in each day.
        let utc = TimeZone(identifier: "UTC")!
        let midnight: Int64 = 1_767_225_600  // 2026-01-01 00:00Z
        let walk = Fixture.source("phone", [Fixture.sample(midnight - 3_600, midnight + 3_600, 120)])
        let results = try cumulative(.cumulativeSum).collection(
            of: [walk], window: nil, anchor: Date(timeIntervalSince1970: Double(midnight)),
            interval: StatisticsInterval(days: 1), timeZone: utc)
        #expect(results.map(\.merged.sum) == [60, 60])
        #expect(results.map(\.span.start) == [Fixture.micros(midnight - 86_400), Fixture.micros(midnight)])
    }

    @Test func bucketsMergeByPriorityAndDiscreteSamplesGoByStart() throws {
        // Hourly buckets from 0. Watch: 60 over [3000, 4200), split 600 s / 600 s → 30 + 30.
        // Phone: 120 over [3300, 4500); only [4200, 4500) is uncovered, 300 of 1200 s → 30, in
        // bucket 1. Bucket 0: 30; bucket 1: 30 + 30 = 60.
        let watch = Fixture.source("watch", [Fixture.sample(3_000, 4_200, 60)])
        let phone = Fixture.source("phone", [Fixture.sample(3_300, 4_500, 120)])
        let grid = IntervalGrid(boundaries: [0, Fixture.micros(3_600), Fixture.micros(7_200)])
        let sums = cumulative([.cumulativeSum, .mostRecent]).compute([watch, phone], grid: grid, window: nil)
        #expect(sums.map(\.merged.sum) == [30, 60])
        // Most recent goes by start: both samples start in bucket 0, none in bucket 1.
        #expect(sums.map(\.merged.mostRecent?.value) == [120, nil])
    }

    @Test func intervalsWithoutDataGetNoResult() throws {
        let grid = IntervalGrid(boundaries: [0, Fixture.micros(10), Fixture.micros(20), Fixture.micros(30)])
        let source = Fixture.source("a", [Fixture.sample(0, 5, 1), Fixture.sample(25, 25, 2)])
        let results = cumulative(.cumulativeSum).compute([source], grid: grid, window: nil)
        #expect(results.map(\.span.start) == [0, Fixture.micros(20)])
        #expect(results.map(\.merged.sum) == [1, 2])
    }

    @Test func windowFromThePredicate() {
        let start = Date(timeIntervalSince1970: 100), end = Date(timeIntervalSince1970: 200)
        let range = SamplePredicate.dateRange(start: start, end: end, strictStart: false, strictEnd: false)
        #expect(range.statisticsWindow == Fixture.span(100, 200))
        let narrower = SamplePredicate.dateRange(start: Date(timeIntervalSince1970: 150), end: nil, strictStart: false, strictEnd: false)
        #expect(SamplePredicate.and([range, .sources(["a"]), narrower]).statisticsWindow == Fixture.span(150, 200))
        #expect(SamplePredicate.or([range]).statisticsWindow == nil)
        #expect(SamplePredicate.sources(["a"]).statisticsWindow == nil)
        let openEnded = SamplePredicate.dateRange(start: start, end: nil, strictStart: false, strictEnd: false).statisticsWindow
        #expect(openEnded?.end == TimeSpan.unbounded.end)
    }
}
