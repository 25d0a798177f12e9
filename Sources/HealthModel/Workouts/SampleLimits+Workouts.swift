/// The bounds on workouts and routes, fixed so the SDK and the broker always agree.
extension SampleLimits {
    /// Events one workout may carry. A marathon with a lap per kilometre and a few pauses has
    /// under a hundred; this leaves room for per-length swimming laps.
    public static let maximumWorkoutEvents = 10_000
    /// Locations one route may hold: a day of one fix per second, with room to spare.
    public static let maximumRouteLocations = 200_000
    /// Routes one workout may have associated with it. Deleting a workout deletes its routes in
    /// the same writer transaction (`ObjectDeleter`), each up to `maximumRouteLocations`, so this
    /// bounds that transaction at 16 maximal routes' locations (3.2 million rows). A workout app
    /// writes one route per workout (Apple's own and the usual third-party ones), a few when it
    /// starts a new one at each segment of a multisport session: 16 is far above that.
    public static let maximumRoutesPerWorkout = 16
    /// Route builders (unfinished routes) one app may have open at once.
    public static let maximumOpenRouteBuilders = 8
    /// Activities one workout may hold (iOS 16's model): a triathlon has five with transitions;
    /// interval sessions built as activities stay far below this.
    public static let maximumWorkoutActivities = 1_000
    /// Statistics one workout or activity may carry: one per quantity type, and a workout
    /// collects a handful.
    public static let maximumWorkoutStatistics = 64
    /// Samples one workout save may associate (the builder's added samples): a day of one
    /// heart-rate sample per second, and at 18 bytes a UUID well inside one 4 MiB frame.
    public static let maximumWorkoutAssociations = 100_000
}
