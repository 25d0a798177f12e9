import Testing
@testable import HealthModel

@Suite(.timeLimit(.minutes(10))) struct TimeSpanSetTests {
    let set = TimeSpanSet([Fixture.span(50, 60), Fixture.span(0, 10), Fixture.span(5, 20), Fixture.span(20, 30),
                           Fixture.span(40, 40)])

    @Test func joinsOverlappingAndTouchingSpansAndDropsInstants() {
        #expect(set.spans == [Fixture.span(0, 30), Fixture.span(50, 60)])
        #expect(set.measure == Fixture.micros(40))
    }

    @Test func containsIsHalfOpen() {
        #expect(set.contains(Fixture.micros(0)))
        #expect(set.contains(Fixture.micros(29)))
        #expect(!set.contains(Fixture.micros(30)))
        #expect(!set.contains(Fixture.micros(-1)))
        #expect(!set.contains(Fixture.micros(60)))
        #expect(!TimeSpanSet().contains(0))
    }

    @Test func gapsAreTheUncoveredParts() {
        var gaps: [TimeSpan] = []
        set.forEachGap(in: Fixture.span(-10, 70)) { gaps.append($0) }
        #expect(gaps == [Fixture.span(-10, 0), Fixture.span(30, 50), Fixture.span(60, 70)])
        gaps = []
        set.forEachGap(in: Fixture.span(5, 25)) { gaps.append($0) }
        #expect(gaps.isEmpty)
    }

    @Test func coveredPartsAreClippedToTheSpan() {
        var parts: [TimeSpan] = []
        set.forEachCovered(in: Fixture.span(25, 55)) { parts.append($0) }
        #expect(parts == [Fixture.span(25, 30), Fixture.span(50, 55)])
    }

    @Test func unionMergesBothSides() {
        var union = set
        union.formUnion(TimeSpanSet([Fixture.span(28, 52), Fixture.span(100, 110)]))
        #expect(union.spans == [Fixture.span(0, 60), Fixture.span(100, 110)])
    }
}
