/// Limits of the workout, route and deletion methods (proto/README.md documents them).
extension WireLimits {
    /// Locations one InsertRouteData call may carry: at about 80 bytes each, 20,000 stay well
    /// under the frame limit. The SDK splits larger inserts into calls of this size.
    public static let maxLocationsPerMessage = 20_000
    /// Locations per streamed RouteDataBatch sent by the broker.
    public static let locationsPerBatch = 2_000
    /// Objects one DeleteObjects or AddSamplesToWorkout call may name.
    public static let maxObjectsPerCall = 10_000
}

extension WireLimits {
    /// Points per QuerySeriesData batch (a beat is 9 bytes on the wire, a voltage 8): small
    /// enough that the SDK's first callback comes quickly, large enough that a 30 s ECG at
    /// 512 Hz is four batches.
    public static let seriesPointsPerBatch = 4_096
}
