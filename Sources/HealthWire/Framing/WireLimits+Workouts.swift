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
