import HealthModel
import Testing

/// The difference between two computations of one collection, as a long-running collection
/// query sends it: only what differs, and nothing when nothing does.
@Suite(.timeLimit(.minutes(10))) struct StatisticsCollectionChangeTests {
    /// A one-hour interval starting at `hour` with sum `sum`.
    func interval(_ hour: Int64, sum: Double) -> StatisticsResult {
        StatisticsResult(span: TimeSpan(start: hour * 3_600_000_000, end: (hour + 1) * 3_600_000_000),
                         merged: StatisticsValues(sum: sum))
    }

    @Test func equalCollectionsMakeAnEmptyChange() {
        let collection = [interval(0, sum: 1), interval(5, sum: 2)]
        #expect(StatisticsCollectionChange(from: collection, to: collection).isEmpty)
        #expect(StatisticsCollectionChange(from: [], to: []).isEmpty)
    }

    @Test func newChangedAndEmptiedIntervalsAreEachReportedInTimeOrder() {
        let old = [interval(0, sum: 1), interval(2, sum: 2), interval(4, sum: 3), interval(9, sum: 4)]
        let new = [interval(1, sum: 5), interval(2, sum: 2), interval(4, sum: 6), interval(7, sum: 7), interval(8, sum: 8)]
        let change = StatisticsCollectionChange(from: old, to: new)
        #expect(change.changed == [interval(1, sum: 5), interval(4, sum: 6), interval(7, sum: 7), interval(8, sum: 8)])
        #expect(change.emptied == [0, 9].map { $0 * 3_600_000_000 })
        #expect(change.applied(to: old) == new)
    }

    @Test func aChangeOnlyInOneSourcesValuesCounts() {
        let source = SourceRecord(bundleIdentifier: "org.example.a", name: "A")
        var before = interval(3, sum: 10)
        before.bySource = [SourceStatistics(source: source, values: StatisticsValues(sum: 10))]
        var after = before
        after.bySource = [SourceStatistics(source: SourceRecord(bundleIdentifier: "org.example.b", name: "B"),
                                           values: StatisticsValues(sum: 10))]
        #expect(StatisticsCollectionChange(from: [before], to: [after]).changed == [after])
    }

    @Test func everythingIsNewInitiallyAndEverythingEmptiesAtTheEnd() {
        let collection = [interval(0, sum: 1), interval(1, sum: 2)]
        let initial = StatisticsCollectionChange(from: [], to: collection)
        #expect(initial == StatisticsCollectionChange(changed: collection, emptied: []))
        #expect(initial.applied(to: []) == collection)
        let cleared = StatisticsCollectionChange(from: collection, to: [])
        #expect(cleared == StatisticsCollectionChange(changed: [], emptied: [0, 3_600_000_000]))
        #expect(cleared.applied(to: collection) == [])
    }
}
