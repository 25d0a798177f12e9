public import Foundation

/// The checks on route locations, on insert (each location alone) and on finishing a route
/// (every location against its workout). Messages give the location's position in the call,
/// never a coordinate: a position is not health data, a place is.
public enum RouteLocationValidator {
    /// Checks the locations of one `insertRouteData` call. `offset` is the number of locations
    /// the builder held before, so positions count from the route's first location.
    public static func check(_ locations: [RouteLocation], offset: Int = 0) throws(HKError) {
        let window = SampleLimits.earliestPermittedSampleDate...SampleLimits.latestPermittedSampleDate
        for (index, location) in locations.enumerated() {
            let name = "route location \(offset + index + 1)"
            let fields = [("latitude", location.latitude), ("longitude", location.longitude), ("altitude", location.altitude),
                          ("horizontalAccuracy", location.horizontalAccuracy), ("verticalAccuracy", location.verticalAccuracy),
                          ("course", location.course), ("speed", location.speed)]
            if let (field, _) = fields.first(where: { !$0.1.isFinite }) {
                throw HKError(.errorInvalidArgument, "\(name): \(field) must be a finite number")
            }
            guard (-90...90).contains(location.latitude) else {
                throw HKError(.errorInvalidArgument, "\(name): latitude must be between -90 and 90 degrees")
            }
            guard (-180...180).contains(location.longitude) else {
                throw HKError(.errorInvalidArgument, "\(name): longitude must be between -180 and 180 degrees")
            }
            guard location.horizontalAccuracy >= 0 else {
                throw HKError(.errorInvalidArgument,
                              "\(name): horizontalAccuracy is negative, which marks the coordinate as invalid; leave such fixes out")
            }
            guard location.course < 360 else {
                throw HKError(.errorInvalidArgument, "\(name): course must be below 360 degrees (negative when not known)")
            }
            guard window.contains(location.timestamp) else {
                throw HKError(.errorInvalidArgument, "\(name): timestamp must lie between 1900-01-01 and 2200-01-01 (UTC)")
            }
        }
    }

    /// Checks that every timestamp lies inside the workout the route is finished with.
    /// HealthKit documents route data as recorded during the workout; locations outside it
    /// would put the route's start or end outside the workout, which queries by workout
    /// interval would then miss or mis-order.
    public static func checkInside(_ workoutStart: Date, _ workoutEnd: Date,
                                   firstLocation first: Date, lastLocation last: Date) throws(HKError) {
        guard first >= workoutStart, last <= workoutEnd else {
            throw HKError(.errorInvalidArgument,
                          "\(HKWorkoutRouteTypeIdentifier): every location's timestamp must lie inside the workout's start and end")
        }
    }
}

extension RouteLocationValidator {
    /// Checks the metadata and device given to `finishRoute(with:metadata:)`, by the rules of
    /// any sample's: a route is saved by these calls, never through `SampleValidator`.
    public static func checkFinish(metadata: [String: MetadataValue], device: DeviceRecord?) throws(HKError) {
        try MetadataValidator.check(metadata, of: ObjectTypeRegistry.workoutRoute, sampleType: nil)
        try DeviceValidator.check(device, of: HKWorkoutRouteTypeIdentifier)
    }
}
