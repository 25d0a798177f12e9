import Testing
@testable import HealthModel

/// Merging by source priority, each case computed by hand (times in seconds).
@Suite(.timeLimit(.minutes(10))) struct SourceMergerTests {
    // A watch counts 60 steps over [0, 60); a phone 90 steps over [30, 90).
    let watch = Fixture.source("watch", [Fixture.sample(0, 60, 60)])
    let phone = Fixture.source("phone", [Fixture.sample(30, 90, 90)])

    @Test func theHigherPrioritySourceWinsTheOverlap() {
        // Watch first: 60, plus the phone's uncovered [60, 90) = 30 of its 60 s → 45. Total 105.
        let merged = SourceMerger.merge([watch, phone])
        #expect(merged.pieces == [
            .init(sourceIndex: 0, span: Fixture.span(0, 60), value: 60),
            .init(sourceIndex: 1, span: Fixture.span(60, 90), value: 45),
        ])
        #expect(Fixture.mergedTotal([watch, phone]) == 105)
    }

    @Test func reversingThePriorityChangesTheTotal() {
        // Phone first: 90, plus the watch's uncovered [0, 30) = 30 of its 60 s → 30. Total 120.
        let merged = SourceMerger.merge([phone, watch])
        #expect(merged.pieces == [
            .init(sourceIndex: 0, span: Fixture.span(30, 90), value: 90),
            .init(sourceIndex: 1, span: Fixture.span(0, 30), value: 30),
        ])
        #expect(Fixture.mergedTotal([phone, watch]) == 120)
    }

    @Test func aSampleInsideAHigherPriorityOneIsDropped() {
        let covered = Fixture.source("phone", [Fixture.sample(10, 20, 50)])
        #expect(SourceMerger.merge([watch, covered]).pieces.map(\.sourceIndex) == [0])
        #expect(Fixture.mergedTotal([watch, covered]) == 60)
    }

    @Test func aLowerPrioritySampleAroundAHigherOneKeepsBothEnds() {
        // Watch 10 over [20, 40); phone 100 over [0, 100): the phone keeps [0, 20) and [40, 100),
        // 80 of its 100 s → 80. Total 90.
        let short = Fixture.source("watch", [Fixture.sample(20, 40, 10)])
        let long = Fixture.source("phone", [Fixture.sample(0, 100, 100)])
        let pieces = SourceMerger.merge([short, long]).pieces
        #expect(pieces.map(\.span) == [Fixture.span(20, 40), Fixture.span(0, 20), Fixture.span(40, 100)])
        #expect(pieces.map(\.value) == [10, 20, 60])
        #expect(Fixture.mergedTotal([short, long]) == 90)
    }

    @Test func threeSourcesEachFillWhatTheOnesAboveLeaveOpen() {
        // A 10 over [0, 10); B 10 over [5, 15) keeps [10, 15) → 5; C 40 over [0, 20) keeps
        // [15, 20), 5 of 20 s → 10. Total 25.
        let a = Fixture.source("a", [Fixture.sample(0, 10, 10)])
        let b = Fixture.source("b", [Fixture.sample(5, 15, 10)])
        let c = Fixture.source("c", [Fixture.sample(0, 20, 40)])
        #expect(SourceMerger.merge([a, b, c]).pieces.map(\.value) == [10, 5, 10])
    }

    @Test func oneSourcesOwnOverlappingSamplesAllCount() {
        let doubled = Fixture.source("app", [Fixture.sample(0, 60, 60), Fixture.sample(30, 90, 60)])
        #expect(Fixture.mergedTotal([doubled]) == 120)
        // …and together they hide a lower-priority source over their whole union [0, 90).
        let other = Fixture.source("other", [Fixture.sample(0, 100, 100)])
        #expect(Fixture.mergedTotal([doubled, other]) == 130)  // 120 + the other's [90, 100) → 10
    }

    @Test func anInstantHidesNothingButIsHiddenByACoveringSample() {
        let instant = Fixture.source("scale", [Fixture.sample(30, 30, 5)])
        let interval = Fixture.source("phone", [Fixture.sample(0, 60, 60)])
        #expect(Fixture.mergedTotal([instant, interval]) == 65)  // the instant covers no time
        #expect(Fixture.mergedTotal([interval, instant]) == 60)  // 30 lies inside [0, 60)
        // Spans are half-open: an instant at a sample's end is not covered by it.
        let atEnd = Fixture.source("scale", [Fixture.sample(60, 60, 5)])
        #expect(Fixture.mergedTotal([interval, atEnd]) == 65)
        // Two instants at the same time from different sources both count.
        let other = Fixture.source("other", [Fixture.sample(30, 30, 7)])
        #expect(Fixture.mergedTotal([instant, other]) == 12)
    }

    @Test func touchingSamplesDoNotOverlap() {
        let first = Fixture.source("a", [Fixture.sample(0, 60, 60)])
        let next = Fixture.source("b", [Fixture.sample(60, 120, 30)])
        #expect(Fixture.mergedTotal([first, next]) == 90)
    }

    @Test func coverageIsEachSourcesOwnUnion() {
        let merged = SourceMerger.merge([watch, phone])
        #expect(merged.coverage.map(\.spans) == [[Fixture.span(0, 60)], [Fixture.span(30, 90)]])
    }

    @Test func unmergedKeepsEverySampleWhole() {
        #expect(SourceMerger.unmerged(phone, index: 3) == [.init(sourceIndex: 3, span: Fixture.span(30, 90), value: 90)])
    }
}
