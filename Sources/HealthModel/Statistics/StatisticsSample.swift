/// What statistics need of one quantity sample: when it was and its value in the type's
/// canonical unit. The store reads only these columns for a statistics query.
public struct StatisticsSample: Hashable, Sendable {
    public var span: TimeSpan
    public var value: Double

    public init(span: TimeSpan, value: Double) {
        self.span = span
        self.value = value
    }

    public init(start: Int64, end: Int64, value: Double) {
        self.init(span: TimeSpan(start: start, end: end), value: value)
    }
}

/// One source's samples of the queried type, sorted by start date (then by the order they
/// were saved). A list of these in priority order — highest first — is what statistics are
/// computed from.
public struct SourceSamples: Hashable, Sendable {
    public var source: SourceRecord
    public var samples: [StatisticsSample]

    public init(source: SourceRecord, samples: [StatisticsSample]) {
        self.source = source
        self.samples = samples
    }
}
