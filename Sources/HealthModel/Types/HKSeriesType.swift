/// A series type (samples that hold a series of data points), as HealthKit's `HKSeriesType`.
public final class HKSeriesType: HKSampleType, @unchecked Sendable {
    /// HealthKit's `HKWorkoutRouteTypeIdentifier`. string_constants.tsv marks the raw value as
    /// unverified; HealthKit's type-identifier constants hold their own names, as assumed here.
    public static let workoutRouteIdentifier = "HKWorkoutRouteTypeIdentifier"
    /// HealthKit's `HKDataTypeIdentifierHeartbeatSeries` (same caveat as the route).
    public static let heartbeatSeriesIdentifier = "HKDataTypeIdentifierHeartbeatSeries"

    init(identifier: String) {
        super.init(identifier: identifier)
    }

    /// The type of a workout's GPS route.
    public static func workoutRoute() -> HKSeriesType { ObjectTypeRegistry.workoutRoute }

    /// The type of heartbeat series (beat-to-beat timing).
    public static func heartbeat() -> HKSeriesType { ObjectTypeRegistry.heartbeatSeries }
}
