public import Foundation

/// One quantity of a quantity series, as `HKQuantitySeriesSampleBuilder.insert(_:for:)` adds it
/// and `HKQuantitySeriesSampleQuery` reports it: a value in the sample's unit over its own
/// interval (a zero-length one for `insert(_:at:)`).
public struct QuantitySeriesDatum: Hashable, Sendable {
    public var value: Double
    public var start: Date
    public var end: Date

    public init(value: Double, start: Date, end: Date) {
        self.value = value
        self.start = start
        self.end = end
    }
}

/// What makes a quantity sample a series (`HKQuantitySample.count` > 1 is possible): how many
/// quantities it holds and the summary HealthKit's `HKDiscreteQuantitySample` reports. The
/// sample's own `.quantity` value is the sum (cumulative types) or average (discrete types) of
/// the quantities, as Apple defines `HKQuantitySample.quantity` for a series.
///
/// The quantities travel with the sample only when it is saved; a fetched sample carries the
/// summary (`data` nil) and `HKQuantitySeriesSampleQuery` streams them under the sample's read
/// scope. Summaries are computed from the data by `summarizing` — on the broker, authoritative —
/// never taken from a client.
public struct QuantitySeries: Hashable, Sendable {
    public var count: Int
    public var minimum: Double
    public var maximum: Double
    public var mostRecent: Double
    public var mostRecentStart: Date
    public var mostRecentEnd: Date
    /// On save: every quantity, in the sample's unit, in start order. Nil in fetched samples.
    public var data: [QuantitySeriesDatum]?

    public init(count: Int, minimum: Double, maximum: Double, mostRecent: Double,
                mostRecentStart: Date, mostRecentEnd: Date, data: [QuantitySeriesDatum]? = nil) {
        self.count = count
        self.minimum = minimum
        self.maximum = maximum
        self.mostRecent = mostRecent
        self.mostRecentStart = mostRecentStart
        self.mostRecentEnd = mostRecentEnd
        self.data = data
    }

    /// The series holding `data` (non-empty, in start order) and the sample's quantity: their
    /// sum when `cumulative`, else their mean. The most recent quantity is the one that starts
    /// last (the data do not overlap, so it also ends last).
    public static func summarizing(_ data: [QuantitySeriesDatum], cumulative: Bool) -> (quantity: Double, series: QuantitySeries)? {
        guard let first = data.first, let last = data.last else { return nil }
        var sum = 0.0
        var minimum = first.value
        var maximum = first.value
        for datum in data {
            sum += datum.value
            minimum = min(minimum, datum.value)
            maximum = max(maximum, datum.value)
        }
        let series = QuantitySeries(count: data.count, minimum: minimum, maximum: maximum, mostRecent: last.value,
                                    mostRecentStart: last.start, mostRecentEnd: last.end, data: data)
        return (cumulative ? sum : sum / Double(data.count), series)
    }
}
