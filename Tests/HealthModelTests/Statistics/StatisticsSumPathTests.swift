import Testing
@testable import HealthModel

/// A merged sum (or duration) without discrete options skips accumulating each sample's value
/// and, for the last source, building its coverage; these pin that the answer is the one the
/// full computation gives.
@Suite(.timeLimit(.minutes(10))) struct StatisticsSumPathTests {
    func cumulative(_ options: HKStatisticsOptions) -> StatisticsCalculator {
        StatisticsCalculator(aggregationStyle: .cumulative, options: options)
    }

    @Test func aSumAloneHasDataWhereASampleStartsEvenWithNothingInTheWindow() {
        // Window [0, 100): the phone's sample [150, 160) adds nothing to a sum, but starts in
        // interval 1, which so has data (sum 0) — with or without discrete options.
        let watch = Fixture.source("watch", [Fixture.sample(0, 100, 100)])
        let phone = Fixture.source("phone", [Fixture.sample(150, 160, 10)])
        let grid = IntervalGrid(boundaries: [0, Fixture.micros(100), Fixture.micros(200), Fixture.micros(300)])
        let window = Fixture.span(0, 100)
        let sumOnly = cumulative(.cumulativeSum).compute([watch, phone], grid: grid, window: window)
        let withDiscrete = cumulative([.cumulativeSum, .discreteMax]).compute([watch, phone], grid: grid, window: window)
        #expect(sumOnly.map(\.span) == [Fixture.span(0, 100), Fixture.span(100, 200)])
        #expect(sumOnly.map(\.merged.sum) == [100, 0])
        #expect(sumOnly.map(\.span) == withDiscrete.map(\.span))
        #expect(sumOnly.map(\.merged.sum) == withDiscrete.map(\.merged.sum))
    }

    @Test func mergingWithoutCoverageGivesTheSamePieces() {
        let a = Fixture.source("a", [Fixture.sample(0, 60, 60), Fixture.sample(100, 160, 6)])
        let b = Fixture.source("b", [Fixture.sample(30, 120, 90)])
        let c = Fixture.source("c", [Fixture.sample(50, 200, 150), Fixture.sample(10, 20, 1)])
        let full = SourceMerger.merge([a, b, c])
        var pieces: [SourceMerger.Piece] = []
        let coverage = SourceMerger.forEachPiece(of: [a, b, c], keepingCoverage: false) { pieces.append($0) }
        #expect(pieces == full.pieces)
        #expect(pieces.map(\.sourceIndex) == [0, 0, 1, 2])
        #expect(coverage.isEmpty)
        #expect(full.coverage.count == 3)
    }

    @Test func unsortedSpansStillMakeTheirUnion() {
        let set = TimeSpanSet([Fixture.span(50, 60), Fixture.span(0, 10), Fixture.span(5, 20), Fixture.span(40, 40)])
        #expect(set.spans == [Fixture.span(0, 20), Fixture.span(50, 60)])
        let sorted = TimeSpanSet([Fixture.span(0, 10), Fixture.span(0, 5), Fixture.span(10, 20)])
        #expect(sorted.spans == [Fixture.span(0, 20)])
    }
}
