/// One beat of a heartbeat series, as HealthKit's `HKHeartbeatSeriesQuery` reports it: its time
/// from the series' start date, and whether beats may be missing just before it.
public struct Heartbeat: Hashable, Sendable {
    public var timeSinceSeriesStart: Double
    public var precededByGap: Bool

    public init(timeSinceSeriesStart: Double, precededByGap: Bool) {
        self.timeSinceSeriesStart = timeSinceSeriesStart
        self.precededByGap = precededByGap
    }
}

/// An `HKHeartbeatSeriesSample`'s value. The beats travel with the sample when it is saved or
/// imported, and are stored apart (`heartbeat_series`); a fetched sample carries the count only
/// (`beats` nil), and `HKHeartbeatSeriesQuery` streams the beats under the sample's read scope.
public struct HeartbeatSeriesValue: Hashable, Sendable {
    public var count: Int
    public var beats: [Heartbeat]?

    /// A fetched series: how many beats it holds.
    public init(count: Int) {
        self.count = count
        beats = nil
    }

    /// A series to save: its beats, in time order.
    public init(beats: [Heartbeat]) {
        count = beats.count
        self.beats = beats
    }
}
