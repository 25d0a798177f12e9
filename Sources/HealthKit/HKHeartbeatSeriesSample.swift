public import Foundation

/// A series of heartbeats, as HealthKit's `HKHeartbeatSeriesSample`: `count` beats, each read
/// with `HKHeartbeatSeriesQuery` (or `HKHeartbeatSeriesQueryDescriptor`). Made by
/// `HKHeartbeatSeriesBuilder`; apps do not create them directly.
public final class HKHeartbeatSeriesSample: HKSeriesSample, @unchecked Sendable {}
