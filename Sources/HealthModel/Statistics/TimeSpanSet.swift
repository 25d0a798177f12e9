/// A union of time spans kept as sorted, disjoint, non-touching spans of positive length:
/// "the time some samples cover". Instants are never members (they cover no time).
///
/// Source merging asks it two questions — which parts of a span are *not* covered yet, and
/// whether an instant is covered — each answered with a binary search plus a walk over the
/// spans that actually meet the question, so merging n samples costs O(n log n).
public struct TimeSpanSet: Sendable, Equatable {
    public private(set) var spans: [TimeSpan]

    public init() { spans = [] }

    /// The union of `spans`, in any order, overlapping or not.
    public init(_ spans: some Sequence<TimeSpan>) {
        let kept = spans.filter { !$0.isInstant }
        // A source's samples come from the store sorted by start: check in one pass instead
        // of sorting again. The order of equal starts does not change the union.
        let sorted = zip(kept, kept.dropFirst()).allSatisfy { $0.start <= $1.start }
        self.spans = Self.coalesced(sorted ? kept : kept.sorted { $0.start < $1.start })
    }

    /// The total time covered.
    public var measure: Int64 { spans.reduce(0) { $0 + $1.length } }

    /// Whether the instant `time` is covered.
    public func contains(_ time: Int64) -> Bool {
        guard let index = lastIndex(startingAtOrBefore: time) else { return false }
        return spans[index].contains(time)
    }

    /// Calls `body` with each part of `span` that no member covers, in time order.
    public func forEachGap(in span: TimeSpan, _ body: (TimeSpan) -> Void) {
        var cursor = span.start
        var index = firstIndex(endingAfter: span.start)
        while index < spans.count, spans[index].start < span.end {
            if spans[index].start > cursor { body(TimeSpan(start: cursor, end: spans[index].start)) }
            cursor = max(cursor, spans[index].end)
            index += 1
        }
        if cursor < span.end { body(TimeSpan(start: cursor, end: span.end)) }
    }

    /// Calls `body` with each covered part of `span`, in time order.
    public func forEachCovered(in span: TimeSpan, _ body: (TimeSpan) -> Void) {
        var index = firstIndex(endingAfter: span.start)
        while index < spans.count, spans[index].start < span.end {
            if let part = spans[index].intersection(span) { body(part) }
            index += 1
        }
    }

    /// Adds everything `other` covers.
    public mutating func formUnion(_ other: TimeSpanSet) {
        guard !other.spans.isEmpty else { return }
        guard !spans.isEmpty else {
            spans = other.spans
            return
        }
        // Both are sorted: a linear merge keeps the union O(n + m).
        var merged: [TimeSpan] = []
        merged.reserveCapacity(spans.count + other.spans.count)
        var left = 0, right = 0
        while left < spans.count || right < other.spans.count {
            if right == other.spans.count || (left < spans.count && spans[left].start <= other.spans[right].start) {
                merged.append(spans[left])
                left += 1
            } else {
                merged.append(other.spans[right])
                right += 1
            }
        }
        spans = Self.coalesced(merged)
    }

    /// Joins overlapping or touching neighbours of spans sorted by start.
    private static func coalesced(_ sorted: [TimeSpan]) -> [TimeSpan] {
        var result: [TimeSpan] = []
        result.reserveCapacity(sorted.count)
        for span in sorted {
            if let last = result.last, span.start <= last.end {
                result[result.count - 1].end = max(last.end, span.end)
            } else {
                result.append(span)
            }
        }
        return result
    }

    /// The first member that ends after `time` (members are disjoint, so ends are sorted too).
    private func firstIndex(endingAfter time: Int64) -> Int {
        var low = 0, high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].end <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func lastIndex(startingAtOrBefore time: Int64) -> Int? {
        var low = 0, high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].start <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}
