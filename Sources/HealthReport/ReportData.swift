public import Foundation

/// What a report shows, already summarized by day: the renderer only draws it. Labels are the
/// caller's text (dates, source names) and are escaped wherever they are drawn.
public struct ReportData: Sendable, Equatable {
    /// One day's value: steps, hours asleep.
    public struct DailyValue: Sendable, Equatable {
        public var day: String
        public var value: Double

        public init(day: String, value: Double) {
            self.day = day
            self.value = value
        }
    }

    /// One day's lowest, average and highest reading (heart rate).
    public struct DailyRange: Sendable, Equatable {
        public var day: String
        public var minimum: Double
        public var average: Double
        public var maximum: Double

        public init(day: String, minimum: Double, average: Double, maximum: Double) {
            self.day = day
            self.minimum = minimum
            self.average = average
            self.maximum = maximum
        }
    }

    public struct Workout: Sendable, Equatable {
        public var start: String
        public var activity: String
        public var minutes: Double
        public var distanceKilometres: Double?
        public var energyKilocalories: Double?
        public var source: String

        public init(start: String, activity: String, minutes: Double, distanceKilometres: Double?, energyKilocalories: Double?, source: String) {
            self.start = start
            self.activity = activity
            self.minutes = minutes
            self.distanceKilometres = distanceKilometres
            self.energyKilocalories = energyKilocalories
            self.source = source
        }
    }

    public var title: String
    /// "2024-05-01 – 2024-05-31".
    public var period: String
    public var generated: String
    public var steps: [DailyValue]
    public var heartRate: [DailyRange]
    public var sleepHours: [DailyValue]
    /// One point per weighing, in kilograms.
    public var bodyMass: [DailyValue]
    public var workouts: [Workout]
    /// Every source that contributed, by name.
    public var sources: [String]

    public init(title: String, period: String, generated: String, steps: [DailyValue] = [], heartRate: [DailyRange] = [],
                sleepHours: [DailyValue] = [], bodyMass: [DailyValue] = [], workouts: [Workout] = [], sources: [String] = []) {
        self.title = title
        self.period = period
        self.generated = generated
        self.steps = steps
        self.heartRate = heartRate
        self.sleepHours = sleepHours
        self.bodyMass = bodyMass
        self.workouts = workouts
        self.sources = sources
    }
}
