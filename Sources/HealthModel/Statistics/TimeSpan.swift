/// A half-open stretch of time `[start, end)` in microseconds since 1970 — the unit the store
/// keeps dates in, so statistics work on the stored values exactly, without rounding.
///
/// A span with `start == end` is an instant: it has no length and covers no time, but it
/// still has a position (`start`).
public struct TimeSpan: Hashable, Sendable, CustomStringConvertible {
    public var start: Int64
    public var end: Int64

    /// For bounds the caller has ordered itself (a max, a clamp, a stored row the schema's
    /// `CHECK (start_us <= end_us)` admitted). Bounds computed from what an app or a file sent —
    /// days, dates, a calendar's answer for them — go through `init(checkedStart:end:)` instead:
    /// a calendar surprise once reached this precondition and ended healthd (1582-10-14, the
    /// Julian/Gregorian cutover, `ActivitySummaryDayRangeEndToEndTests`).
    public init(start: Int64, end: Int64) {
        precondition(start <= end, "a time span must not end before it starts")
        self.start = start
        self.end = end
    }

    /// The span, or `errorInvalidArgument` when `end` lies before `start`: the throwing
    /// constructor for bounds derived from outside values.
    public init(checkedStart start: Int64, end: Int64) throws(HKError) {
        guard start <= end else {
            throw HKError(.errorInvalidArgument, "a time span must not end (\(end) µs since 1970) before it starts (\(start) µs)")
        }
        self.init(start: start, end: end)
    }

    public var length: Int64 { end - start }
    public var isInstant: Bool { start == end }

    /// Whether the instant `time` lies inside: `start <= time < end`.
    public func contains(_ time: Int64) -> Bool { start <= time && time < end }

    /// The common part with `other`, or nil when they share no time. Two spans that only touch
    /// (`a.end == b.start`) share none.
    public func intersection(_ other: TimeSpan) -> TimeSpan? {
        let start = max(self.start, other.start)
        let end = min(self.end, other.end)
        return start < end ? TimeSpan(start: start, end: end) : nil
    }

    /// How much of this span lies inside `other`.
    public func overlapLength(with other: TimeSpan) -> Int64 {
        max(0, min(end, other.end) - max(start, other.start))
    }

    public var description: String { "[\(start), \(end))" }
}
