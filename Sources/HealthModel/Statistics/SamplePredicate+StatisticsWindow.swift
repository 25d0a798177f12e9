extension SamplePredicate {
    /// The date range a statistics query prorates cumulative values to: the predicate's date
    /// range when the predicate is one, or the intersection of the date ranges directly under a
    /// top-level AND. Nil when there is none (no bound: samples count whole). Ranges nested
    /// deeper (under OR or NOT) still select samples but set no window.
    public var statisticsWindow: TimeSpan? {
        switch self {
        case let .dateRange(start, end, _, _):
            return Self.span(start?.microsecondsSince1970, end?.microsecondsSince1970)
        case let .and(operands):
            let windows = operands.compactMap { operand -> TimeSpan? in
                guard case .dateRange = operand else { return nil }
                return operand.statisticsWindow
            }
            guard let first = windows.first else { return nil }
            return windows.dropFirst().reduce(first) { Self.span(max($0.start, $1.start), min($0.end, $1.end)) }
        default:
            return nil
        }
    }

    /// A window from optional bounds; an empty one (end before start) is an instant that
    /// nothing overlaps.
    private static func span(_ start: Int64?, _ end: Int64?) -> TimeSpan {
        let start = start ?? TimeSpan.unbounded.start
        return TimeSpan(start: start, end: max(start, end ?? TimeSpan.unbounded.end))
    }
}

extension TimeSpan {
    /// All time, for an open window. Far beyond any storable date (1900–2200) yet far from
    /// Int64's limits, so lengths and sums of bounds never overflow.
    public static let unbounded = TimeSpan(start: -(1 << 61), end: 1 << 61)
}
