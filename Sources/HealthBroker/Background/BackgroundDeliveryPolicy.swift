import HealthModel

/// How patient background delivery is with apps that are launched but do not acknowledge an
/// observer update (`BackgroundSchedule` applies it).
public struct BackgroundDeliveryPolicy: Sendable, Equatable {
    /// How long a launched app has to acknowledge an observer update of the type.
    public var acknowledgementTimeout: Duration
    /// The wait after the first unacknowledged launch; it doubles with each further one.
    public var firstBackoff: Duration
    public var maximumBackoff: Duration
    /// Unacknowledged launches in a row after which a registration is suspended.
    public var unacknowledgedLaunchLimit: Int
    /// Divides every frequency's period (1: an hour is an hour). Only healthd's hidden
    /// `--background-period-scale` changes it, so tests and demos can watch an hourly or daily
    /// registration fall due without waiting a day; it can only make launches more frequent.
    public var periodScale: Double = 1
    /// The wait before trying again a launch that could not be sent (the agent refused the
    /// offer, or the store could not be read to re-check it) or a change check that could not
    /// read the store; it doubles with each further failure up to `maximumRetryDelay`. Such a
    /// failure is healthd's, not the app's, so it never counts towards suspension — but an owed
    /// delivery always has a next attempt, as HealthKit keeps trying undelivered background
    /// updates with a backoff algorithm (developer.apple.com: `enableBackgroundDelivery(for:
    /// frequency:withCompletion:)`, `HKObserverQueryCompletionHandler`).
    public var firstRetryDelay: Duration = .seconds(1)
    public var maximumRetryDelay: Duration = .seconds(60)

    /// The least time between two launches of a registration of `frequency`.
    func period(of frequency: HKUpdateFrequency) -> Duration {
        // Exact unless scaled: a week divided by 1.0 in floating point is not quite a week.
        periodScale > 1 ? frequency.minimumInterval / periodScale : frequency.minimumInterval
    }

    public init(acknowledgementTimeout: Duration = .seconds(120), firstBackoff: Duration = .seconds(300),
                maximumBackoff: Duration = .seconds(4 * 3600), unacknowledgedLaunchLimit: Int = 3) {
        self.acknowledgementTimeout = acknowledgementTimeout
        self.firstBackoff = firstBackoff
        self.maximumBackoff = maximumBackoff
        self.unacknowledgedLaunchLimit = unacknowledgedLaunchLimit
    }
}
