public import Foundation

/// The result of an `HKStatisticsCollectionQuery`, as HealthKit's `HKStatisticsCollection`:
/// statistics per interval, intervals cut by the query's anchor, interval components and time
/// zone. Only intervals that hold data arrive from the broker; enumeration fills in the others.
/// An `NSObject` as Apple's (which is not `NSSecureCoding`: archive its `HKStatistics`).
public final class HKStatisticsCollection: NSObject, @unchecked Sendable {
    // @unchecked: immutable after creation; HKQuantityType is an immutable registry class.
    private let quantityType: HKQuantityType
    private let anchor: Date
    private let interval: StatisticsInterval
    private let timeZone: TimeZone
    private let separateBySource: Bool
    /// Intervals with data, in time order, and the same by start (microseconds).
    private let withData: [HKStatistics]
    private let byStart: [Int64: HKStatistics]

    init(type: HKQuantityType, results: [StatisticsResult], anchor: Date, interval: StatisticsInterval,
         timeZone: TimeZone, separateBySource: Bool) {
        quantityType = type
        self.anchor = anchor
        self.interval = interval
        self.timeZone = timeZone
        self.separateBySource = separateBySource
        withData = results.map { HKStatistics(type: type, result: $0, separateBySource: separateBySource) }
        byStart = Dictionary(zip(results.map(\.span.start), withData), uniquingKeysWith: { first, _ in first })
        super.init()
    }

    /// The statistics of the interval holding `date`. As in HealthKit, an interval without data
    /// still has statistics — its dates are the interval's and its quantities are nil; nil only
    /// for a date the calendar cannot place.
    public func statistics(for date: Date) -> HKStatistics? {
        let micros = date.microsecondsSince1970
        guard let grid = grid(from: micros, to: micros), grid.count > 0 else { return nil }
        let span = grid.span(at: 0)
        return byStart[span.start] ?? HKStatistics(type: quantityType, empty: span, separateBySource: separateBySource)
    }

    /// Every interval that holds data, in time order.
    public func statistics() -> [HKStatistics] { withData }

    /// The sources with data in any interval; empty unless the query asked for `.separateBySource`.
    public func sources() -> Set<HKSource> {
        Set(withData.flatMap { $0.sources ?? [] })
    }

    /// Calls `block` for each interval from the one holding `startDate` to the one holding
    /// `endDate`, in time order — intervals without data too (their quantities are nil).
    /// Setting the flag to true stops the enumeration.
    public func enumerateStatistics(from startDate: Date, to endDate: Date,
                                    with block: (HKStatistics, UnsafeMutablePointer<ObjCBool>) -> Void) {
        guard startDate <= endDate,
              let grid = grid(from: startDate.microsecondsSince1970, to: endDate.microsecondsSince1970) else { return }
        var stop = ObjCBool(false)
        for index in 0..<grid.count {
            let span = grid.span(at: index)
            let statistics = byStart[span.start]
                ?? HKStatistics(type: quantityType, empty: span, separateBySource: separateBySource)
            block(statistics, &stop)
            if stop.boolValue { return }
        }
    }

    /// The intervals between two instants. Validated at execute, so only dates the calendar
    /// cannot represent fail here; the app asked for the range, so it is not capped.
    private func grid(from start: Int64, to end: Int64) -> IntervalGrid? {
        try? IntervalGrid.covering(TimeSpan(start: start, end: end), anchor: anchor, interval: interval,
                                   timeZone: timeZone, maxIntervals: .max)
    }
}
