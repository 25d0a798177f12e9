/// The statistics of one interval (or one source in it), in the type's canonical unit. A value
/// is nil when it was not asked for or there was nothing to compute it from.
public struct StatisticsValues: Hashable, Sendable {
    /// The most recent sample's value and when it was.
    public struct MostRecent: Hashable, Sendable {
        public var value: Double
        public var span: TimeSpan

        public init(value: Double, span: TimeSpan) {
            self.value = value
            self.span = span
        }
    }

    public var sum: Double?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var mostRecent: MostRecent?
    /// Seconds of time the samples cover, each instant once.
    public var duration: Double?

    public init(sum: Double? = nil, average: Double? = nil, minimum: Double? = nil, maximum: Double? = nil,
                mostRecent: MostRecent? = nil, duration: Double? = nil) {
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.mostRecent = mostRecent
        self.duration = duration
    }
}

/// One source's statistics within an interval (`.separateBySource`).
public struct SourceStatistics: Hashable, Sendable {
    public var source: SourceRecord
    public var values: StatisticsValues

    public init(source: SourceRecord, values: StatisticsValues) {
        self.source = source
        self.values = values
    }
}

/// The statistics of one interval: merged across sources, and per source when asked.
public struct StatisticsResult: Hashable, Sendable {
    public var span: TimeSpan
    public var merged: StatisticsValues
    /// Sources with data in the interval, in priority order; empty without `.separateBySource`.
    public var bySource: [SourceStatistics]

    public init(span: TimeSpan, merged: StatisticsValues, bySource: [SourceStatistics] = []) {
        self.span = span
        self.merged = merged
        self.bySource = bySource
    }
}
