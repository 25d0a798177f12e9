public import Foundation

/// A series type (samples that hold a series of data points), as HealthKit's `HKSeriesType`.
public final class HKSeriesType: HKSampleType, @unchecked Sendable {
    init(identifier: String) {
        super.init(identifier: identifier)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// The type of a workout's GPS route (`HKWorkoutRouteTypeIdentifier`).
    public static func workoutRoute() -> HKSeriesType { ObjectTypeRegistry.workoutRoute }

    /// The type of heartbeat series, beat-to-beat timing (`HKDataTypeIdentifierHeartbeatSeries`).
    public static func heartbeat() -> HKSeriesType { ObjectTypeRegistry.heartbeatSeries }
}
