/// How one statistics collection differs from the same collection computed earlier: what a
/// long-running collection query sends instead of the whole collection again.
///
/// A collection is its intervals that hold data, in time order (`StatisticsCalculator.collection`);
/// within one query every interval is identified by its start, because the grid is fixed by the
/// query's anchor, interval and time zone. Both sides of a comparison must come from the same
/// query.
///
/// The change is a function of the two collections alone. The broker computes both under the
/// app's read scope, so a change nobody may see leaves the collections equal and the change empty.
public struct StatisticsCollectionChange: Hashable, Sendable {
    /// Intervals that are new or whose statistics differ, in time order.
    public var changed: [StatisticsResult]
    /// Starts (microseconds) of intervals that held data and hold none now, in time order.
    public var emptied: [Int64]

    public init(changed: [StatisticsResult], emptied: [Int64]) {
        self.changed = changed
        self.emptied = emptied
    }

    /// The change that turns `old` into `new` (both in time order, from the same query).
    public init(from old: [StatisticsResult], to new: [StatisticsResult]) {
        var changed: [StatisticsResult] = []
        var emptied: [Int64] = []
        var oldIndex = old.startIndex
        var newIndex = new.startIndex
        // A merge of two lists sorted by start: each interval is looked at once.
        while oldIndex < old.endIndex, newIndex < new.endIndex {
            let before = old[oldIndex], after = new[newIndex]
            if before.span.start == after.span.start {
                if before != after { changed.append(after) }
                oldIndex += 1
                newIndex += 1
            } else if before.span.start < after.span.start {
                emptied.append(before.span.start)
                oldIndex += 1
            } else {
                changed.append(after)
                newIndex += 1
            }
        }
        emptied += old[oldIndex...].map(\.span.start)
        changed += new[newIndex...]
        self.init(changed: changed, emptied: emptied)
    }

    /// True when the two collections were equal.
    public var isEmpty: Bool { changed.isEmpty && emptied.isEmpty }

    /// `intervals` (in time order) with this change applied, in time order.
    public func applied(to intervals: [StatisticsResult]) -> [StatisticsResult] {
        var byStart = Dictionary(intervals.map { ($0.span.start, $0) }, uniquingKeysWith: { _, later in later })
        for start in emptied { byStart[start] = nil }
        for result in changed { byStart[result.span.start] = result }
        return byStart.values.sorted { $0.span.start < $1.span.start }
    }
}
