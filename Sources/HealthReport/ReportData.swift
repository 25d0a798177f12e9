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

    /// A cumulative type's total per day (active energy, distance, flights climbed, …).
    public struct DailyTotals: Sendable, Equatable {
        /// A short name for the chart's `data-chart` ("active-energy").
        public var name: String
        /// The heading ("Active energy").
        public var title: String
        public var unit: String
        public var values: [DailyValue]

        public init(name: String, title: String, unit: String, values: [DailyValue]) {
            self.name = name
            self.title = title
            self.unit = unit
            self.values = values
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
        /// How its route is drawn.
        public var kind: RouteKind
        /// Its routes (usually one; a paused outdoor workout can have several), each in time order.
        public var routes: [[RoutePoint]]

        public init(start: String, activity: String, minutes: Double, distanceKilometres: Double?, energyKilocalories: Double?, source: String,
                    kind: RouteKind = .other, routes: [[RoutePoint]] = []) {
            self.start = start
            self.activity = activity
            self.minutes = minutes
            self.distanceKilometres = distanceKilometres
            self.energyKilocalories = energyKilocalories
            self.source = source
            self.kind = kind
            self.routes = routes
        }
    }

    /// The points of `route` the report draws (at most `RouteMap.maxDrawnPoints`, evenly spaced,
    /// first and last kept): a collector keeps only these, so a period of many long routes costs
    /// the report what it draws, not what was recorded.
    public static func drawnPoints(of route: [RoutePoint]) -> [RoutePoint] { RouteMap.thinned(route) }

    /// One location of a route, in degrees.
    public struct RoutePoint: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// The colour a route is drawn in, by the kind of workout — as workout apps colour them:
    /// walks green, runs red, rides blue, hikes brown, swims cyan, wheelchair pushes purple,
    /// anything else grey.
    public enum RouteKind: String, Sendable, Equatable, CaseIterable {
        case walk, run, ride, hike, swim, wheelchair, other

        public var colour: String {
            switch self {
            case .walk: "#2e9e44"
            case .run: "#d62828"
            case .ride: "#1d6fd6"
            case .hike: "#8c5a2b"
            case .swim: "#0aa3c2"
            case .wheelchair: "#7b4fb5"
            case .other: "#5f6b73"
            }
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
    /// Daily totals of the other cumulative types that have data in the period, in this order.
    public var dailyTotals: [DailyTotals] = []
    /// Every source that contributed, by name.
    public var sources: [String]
    /// How workout routes are drawn: by default without the areas around their start and end
    /// (`RouteDisplay`), since a report is made to be handed to someone.
    public var routeDisplay = RouteDisplay.hiddenEnds

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
