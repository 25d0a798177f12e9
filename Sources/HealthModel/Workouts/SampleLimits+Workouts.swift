/// The bounds on workouts and routes, fixed so the SDK and the broker always agree.
extension SampleLimits {
    /// Events one workout may carry. A marathon with a lap per kilometre and a few pauses has
    /// under a hundred; this leaves room for per-length swimming laps.
    public static let maximumWorkoutEvents = 10_000
    /// Locations one route may hold: a day of one fix per second, with room to spare.
    public static let maximumRouteLocations = 200_000
    /// Route builders (unfinished routes) one app may have open at once.
    public static let maximumOpenRouteBuilders = 8
}
