public import Foundation

/// The checks on route locations, on insert (each location alone) and on finishing a route
/// (every location against its workout). Messages give the location's position in the call,
/// never a coordinate: a position is not health data, a place is.
///
/// Every number of a location has a bound, by CoreLocation's `CLLocation` documentation
/// (developer.apple.com/documentation/corelocation/cllocation):
/// - latitude −90…90 and longitude −180…180 degrees;
/// - `horizontalAccuracy`: "a negative value indicates that the latitude and longitude are
///   invalid" — such a fix is refused (leave it out); otherwise at most `maximumAccuracy`;
/// - `verticalAccuracy`, `speed`, `course`: a negative value indicates the altitude, speed or
///   course is invalid (not known) and is kept as such; otherwise at most `maximumAccuracy`,
///   `maximumSpeed`, and below 360 degrees;
/// - `altitude`: no documented bound; `altitudeRange` spans the deepest ocean floor to the
///   edge of space, so no real fix is refused and no extreme is stored;
/// - every number finite.
public enum RouteLocationValidator {
    /// Metres: below the Challenger Deep (about −10,935 m) to the Kármán line (100 km).
    public static let altitudeRange: ClosedRange<Double> = -12_000 ... 100_000
    /// Metres: half the Earth's circumference; every point on Earth lies within it of any other.
    public static let maximumAccuracy: Double = 20_037_509
    /// Metres per second: faster than anything a workout is recorded in (about Mach 3).
    public static let maximumSpeed: Double = 1_000

    /// Checks the locations of one `insertRouteData` call. `offset` is the number of locations
    /// the builder held before, so positions count from the route's first location.
    public static func check(_ locations: [RouteLocation], offset: Int = 0) throws(HKError) {
        let window = SampleLimits.earliestPermittedSampleDate...SampleLimits.latestPermittedSampleDate
        for (index, location) in locations.enumerated() {
            let name = "route location \(offset + index + 1)"
            if let problem = problem(in: location) {
                throw HKError(.errorInvalidArgument, "\(name): \(problem)")
            }
            guard window.contains(location.timestamp) else {
                throw HKError(.errorInvalidArgument, "\(name): timestamp must lie between 1900-01-01 and 2200-01-01 (UTC)")
            }
        }
    }

    /// What is wrong with a location's numbers, naming the field; nil when nothing is.
    static func problem(in location: RouteLocation) -> String? {
        let fields = [("latitude", location.latitude), ("longitude", location.longitude), ("altitude", location.altitude),
                      ("horizontalAccuracy", location.horizontalAccuracy), ("verticalAccuracy", location.verticalAccuracy),
                      ("course", location.course), ("speed", location.speed)]
        if let (field, _) = fields.first(where: { !$0.1.isFinite }) { return "\(field) must be a finite number" }
        if !(-90...90).contains(location.latitude) { return "latitude must be between -90 and 90 degrees" }
        if !(-180...180).contains(location.longitude) { return "longitude must be between -180 and 180 degrees" }
        if !altitudeRange.contains(location.altitude) {
            return "altitude must be between -12,000 and 100,000 metres"
        }
        if location.horizontalAccuracy < 0 {
            return "horizontalAccuracy is negative, which marks the coordinate as invalid; leave such fixes out"
        }
        if location.horizontalAccuracy > maximumAccuracy { return "horizontalAccuracy must be at most 20,037,509 metres" }
        if location.verticalAccuracy > maximumAccuracy {
            return "verticalAccuracy must be at most 20,037,509 metres (negative when the altitude is not known)"
        }
        if location.speed > maximumSpeed { return "speed must be at most 1,000 m/s (negative when not known)" }
        if location.course >= 360 { return "course must be below 360 degrees (negative when not known)" }
        return nil
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
