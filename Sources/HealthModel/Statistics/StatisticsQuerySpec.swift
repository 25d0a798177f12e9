public import Foundation

/// An HKStatisticsQuery as a value: one quantity type, the samples' predicate, the options.
public struct StatisticsQuerySpec: Hashable, Sendable {
    public var typeIdentifier: String
    public var predicate: SamplePredicate?
    public var options: HKStatisticsOptions

    public init(typeIdentifier: String, predicate: SamplePredicate? = nil, options: HKStatisticsOptions) {
        self.typeIdentifier = typeIdentifier
        self.predicate = predicate
        self.options = options
    }

    /// The quantity type, after the checks every app gets the same answer to: a known
    /// quantity type, and options that suit its aggregation style.
    public func validatedType() throws(HKError) -> HKQuantityType {
        guard let type = HKObjectType.type(forIdentifier: typeIdentifier) else {
            throw HKError(.errorInvalidArgument, "unknown type identifier \(typeIdentifier.prefix(100))")
        }
        guard let quantityType = type as? HKQuantityType else {
            throw HKError(.errorInvalidArgument, "statistics need a quantity type; \(typeIdentifier) is not one")
        }
        try options.validate(for: quantityType)
        return quantityType
    }
}

/// An HKStatisticsCollectionQuery as a value: the statistics query, and how time is cut into
/// intervals — anchor, interval length, and the time zone the calendar works in.
public struct StatisticsCollectionSpec: Hashable, Sendable {
    public var statistics: StatisticsQuerySpec
    public var anchor: Date
    public var interval: StatisticsInterval
    /// An IANA time zone identifier ("Europe/Berlin").
    public var timeZoneIdentifier: String

    public init(statistics: StatisticsQuerySpec, anchor: Date, interval: StatisticsInterval, timeZoneIdentifier: String) {
        self.statistics = statistics
        self.anchor = anchor
        self.interval = interval
        self.timeZoneIdentifier = timeZoneIdentifier
    }

    /// The time zone, or `errorInvalidArgument` naming the identifier that is not one.
    public func timeZone() throws(HKError) -> TimeZone {
        guard let zone = TimeZone(identifier: timeZoneIdentifier) else {
            throw HKError(.errorInvalidArgument, "unknown time zone \(timeZoneIdentifier.prefix(100))")
        }
        return zone
    }

    /// Every check that does not depend on stored data, the anchor inside the dates the store
    /// accepts (1900–2200, `SampleLimits`) among them: healthd lays the intervals out from it, and
    /// an anchor of Int64.min or Int64.max microseconds once ended healthd for every app
    /// (`WireNumberJunkEndToEndTests`). healthd runs these checks on every collection it computes,
    /// one-shot or watched, before anything is read.
    public func validate() throws(HKError) {
        _ = try statistics.validatedType()
        try interval.validate()
        _ = try timeZone()
        guard (SampleLimits.earliestPermittedSampleDate...SampleLimits.latestPermittedSampleDate).contains(anchor) else {
            throw HKError(.errorInvalidArgument, "a statistics collection's anchorDate must lie between 1900-01-01 and 2200-01-01 (UTC)")
        }
    }
}
