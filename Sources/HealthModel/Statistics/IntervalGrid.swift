public import Foundation

/// Consecutive intervals of a statistics collection: interval *k* runs from
/// `anchor + k × interval` to `anchor + (k+1) × interval`, *k* any integer, with the additions
/// done by a Gregorian calendar in the query's time zone. So daily intervals anchored at a
/// midnight start at every local midnight and last 23 or 25 hours across DST changes, and
/// monthly ones follow the months' lengths. Minutes and hours are fixed lengths of absolute
/// time (see `StatisticsInterval.isFixedLength`).
///
/// Each boundary is computed from the anchor directly (`anchor + k × interval`), never from
/// the previous boundary, so month ends do not drift (Jan 31 → Feb 28 → Mar 31).
public struct IntervalGrid: Sendable, Equatable {
    /// `count + 1` boundaries in microseconds since 1970, strictly increasing.
    public let boundaries: [Int64]
    /// The *k* of the first interval.
    public let firstIndex: Int

    public var count: Int { boundaries.count - 1 }

    public init(boundaries: [Int64], firstIndex: Int = 0) {
        precondition(boundaries.count >= 2, "a grid has at least one interval")
        self.boundaries = boundaries
        self.firstIndex = firstIndex
    }

    public func span(at index: Int) -> TimeSpan {
        TimeSpan(start: boundaries[index], end: boundaries[index + 1])
    }

    /// The position (0..<count) of the interval holding `time`, or nil outside the grid.
    public func index(containing time: Int64) -> Int? {
        guard time >= boundaries[0], time < boundaries[count] else { return nil }
        var low = 0, high = count
        while high - low > 1 {
            let middle = (low + high) / 2
            if boundaries[middle] <= time { low = middle } else { high = middle }
        }
        return low
    }

    /// Calls `body` with each interval `span` shares time with and how much, in time order.
    public func forEachOverlap(of span: TimeSpan, _ body: (_ index: Int, _ length: Int64) -> Void) {
        let first = max(span.start, boundaries[0])
        guard first < span.end, var index = self.index(containing: first) else { return }
        while index < count, boundaries[index] < span.end {
            let overlap = span.overlapLength(with: self.span(at: index))
            if overlap > 0 { body(index, overlap) }
            index += 1
        }
    }

    /// The intervals from the one holding `span.start` to the one holding `span.end`.
    /// Throws `errorInvalidArgument` when that is more than `maxIntervals`, before computing
    /// any boundary.
    public static func covering(_ span: TimeSpan, anchor: Date, interval: StatisticsInterval, timeZone: TimeZone,
                                maxIntervals: Int = StatisticsLimits.maxIntervals) throws(HKError) -> IntervalGrid {
        try interval.validate()
        try BoundaryFunction.validate(anchor: anchor)
        let boundary = BoundaryFunction(anchor: anchor, interval: interval, timeZone: timeZone)
        let first = try boundary.index(containing: span.start)
        let last = try boundary.index(containing: span.end)
        guard last - first < maxIntervals else {
            throw HKError(.errorInvalidArgument, "the query covers \(last - first + 1) intervals of \(interval); at most "
                          + "\(maxIntervals) are computed at once — use a longer interval or a narrower date range")
        }
        var boundaries: [Int64] = []
        boundaries.reserveCapacity(last - first + 2)
        for k in first...(last + 1) { boundaries.append(try boundary.at(k)) }
        return IntervalGrid(boundaries: boundaries, firstIndex: first)
    }
}

/// `k ↦ anchor + k × interval` in microseconds, and its inverse.
struct BoundaryFunction {
    let anchor: Date
    let anchorMicroseconds: Int64
    let interval: StatisticsInterval
    let calendar: Calendar

    init(anchor: Date, interval: StatisticsInterval, timeZone: TimeZone) {
        self.anchor = anchor
        anchorMicroseconds = anchor.microsecondsSince1970
        self.interval = interval
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    func at(_ k: Int) throws(HKError) -> Int64 {
        if interval.isFixedLength {
            let (product, overflow) = Int64(k).multipliedReportingOverflow(by: Int64(interval.approximateSeconds) * 1_000_000)
            // Checked: an anchor near Int64's limits would overflow (`validate(anchor:)` keeps
            // it far from them; this stays a typed error if that bound ever widens).
            let (boundary, sumOverflow) = anchorMicroseconds.addingReportingOverflow(product)
            guard !overflow, !sumOverflow else { throw Self.outOfRange }
            return boundary
        }
        guard let date = calendar.date(byAdding: interval.components(times: k), to: anchor) else { throw Self.outOfRange }
        return date.microsecondsSince1970
    }

    /// The k with `at(k) ≤ time < at(k + 1)`: a guess from the average length, then corrected
    /// by stepping (a step or two at most: calendar intervals vary by a few percent).
    func index(containing time: Int64) throws(HKError) -> Int {
        let (offset, overflow) = time.subtractingReportingOverflow(anchorMicroseconds)
        guard !overflow else { throw Self.outOfRange }
        let guess = (Double(offset) / 1_000_000 / interval.approximateSeconds).rounded(.down)
        guard abs(guess) < 1e9 else { throw Self.outOfRange }
        var k = Int(guess)
        while try at(k) > time { k -= 1 }
        while try at(k + 1) <= time { k += 1 }
        return k
    }

    /// The grid's own bound, whoever calls it: healthd and the SDK already hold a collection's
    /// anchor to 1900–2200 (`StatisticsCollectionSpec.validate`), activity summaries to
    /// `CalendarDay`'s years. An anchor can be any Int64 of microseconds (±292,000 years). Before
    /// about 4713 BC Foundation's Gregorian calendar clamps dates (adding a day to 1e12 s and
    /// to 3e11 s before 1970 gives the same date), so boundaries stop following the anchor and
    /// the search for k, which starts from a guess made with the true anchor, could step
    /// through millions of intervals; near Int64's limits `time - anchor` overflows. Anchors
    /// are held to the years 1–9999 (`CalendarDay`'s, with two days to spare for time zones).
    static let anchorSeconds: ClosedRange<Double> = -62_135_769_600 ... 253_402_473_600

    static func validate(anchor: Date) throws(HKError) {
        guard anchorSeconds.contains(anchor.timeIntervalSince1970) else {
            throw HKError(.errorInvalidArgument, "the statistics anchor date (\(anchor.timeIntervalSince1970) s since 1970) is "
                          + "outside the years 1–9999")
        }
    }

    static let outOfRange = HKError(.errorInvalidArgument, "the statistics intervals run outside the dates the calendar can represent")
}
