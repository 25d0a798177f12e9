import Foundation
import HealthModel
import HealthReport
import HealthWire

/// Gathers what `healthctl report` shows from healthd, summarized by day in the user's time zone
/// as the samples stream in (memory holds one value per day, not the samples).
///
/// Daily steps add up every source's samples: where two devices counted the same walk, the day is
/// counted twice (the broker's statistics merge sources by priority, but only apps can ask for
/// them yet).
struct ReportCollector {
    let client: ManagerClient
    let start: Date
    let end: Date
    let timeZone: TimeZone
    /// False for `--routes none`: no route is asked of healthd at all.
    var readsRoutes = true

    /// The cumulative types besides steps whose daily totals the report charts, each in the unit
    /// it is drawn in. Like steps, a day adds up every source's samples.
    static let dailyTotalTypes: [(type: String, name: String, title: String, unit: String)] = [
        ("HKQuantityTypeIdentifierActiveEnergyBurned", "active-energy", "Active energy", "kcal"),
        ("HKQuantityTypeIdentifierDistanceWalkingRunning", "distance-walking-running", "Walking and running distance", "km"),
        ("HKQuantityTypeIdentifierDistanceCycling", "distance-cycling", "Cycling distance", "km"),
        ("HKQuantityTypeIdentifierAppleExerciseTime", "exercise-time", "Exercise minutes", "min"),
        ("HKQuantityTypeIdentifierFlightsClimbed", "flights-climbed", "Flights climbed", "count"),
    ]

    /// Sleep analysis values that mean asleep (unspecified, core, deep, REM).
    static let asleepValues: Set<Int> = [1, 3, 4, 5]

    func collect(title: String, period: String, generated: String, routes: RouteDisplay = .hiddenEnds) async throws(HealthCtlError) -> ReportData {
        var data = ReportData(title: title, period: period, generated: generated)
        data.routeDisplay = routes
        var sources = Set<String>()
        var steps: [String: Double] = [:]
        try await each("HKQuantityTypeIdentifierStepCount", sources: &sources) { sample in
            if case let .quantity(value, unit) = sample.value { steps[day(sample.startDate), default: 0] += convert(value, unit, to: .count()) }
        }
        data.steps = steps.sorted { $0.key < $1.key }.map { ReportData.DailyValue(day: $0.key, value: $0.value) }

        for (type, name, title, unit) in Self.dailyTotalTypes {
            var totals: [String: Double] = [:]
            let target = (try? HKUnit.parse(unit)) ?? .count()
            try await each(type, sources: &sources) { sample in
                if case let .quantity(value, sampleUnit) = sample.value { totals[day(sample.startDate), default: 0] += convert(value, sampleUnit, to: target) }
            }
            if !totals.isEmpty {
                data.dailyTotals.append(ReportData.DailyTotals(name: name, title: title, unit: unit, values: totals.sorted { $0.key < $1.key }
                    .map { ReportData.DailyValue(day: $0.key, value: $0.value) }))
            }
        }

        var heart: [String: (min: Double, max: Double, sum: Double, count: Int)] = [:]
        let perMinute = HKUnit.count().unitDivided(by: .minute())
        try await each("HKQuantityTypeIdentifierHeartRate", sources: &sources) { sample in
            guard case let .quantity(value, unit) = sample.value else { return }
            let bpm = convert(value, unit, to: perMinute)
            let key = day(sample.startDate)
            let old = heart[key] ?? (bpm, bpm, 0, 0)
            heart[key] = (min(old.min, bpm), max(old.max, bpm), old.sum + bpm, old.count + 1)
        }
        data.heartRate = heart.sorted { $0.key < $1.key }.map {
            ReportData.DailyRange(day: $0.key, minimum: $0.value.min, average: $0.value.sum / Double($0.value.count), maximum: $0.value.max)
        }

        var sleep: [String: Double] = [:]
        try await each("HKCategoryTypeIdentifierSleepAnalysis", sources: &sources) { sample in
            guard case let .category(raw) = sample.value, Self.asleepValues.contains(raw) else { return }
            // A night belongs to the day it ends on.
            sleep[day(sample.endDate), default: 0] += sample.endDate.timeIntervalSince(sample.startDate) / 3600
        }
        data.sleepHours = sleep.sorted { $0.key < $1.key }.map { ReportData.DailyValue(day: $0.key, value: $0.value) }

        try await each("HKQuantityTypeIdentifierBodyMass", sources: &sources) { sample in
            if case let .quantity(value, unit) = sample.value {
                data.bodyMass.append(ReportData.DailyValue(day: day(sample.startDate), value: convert(value, unit, to: .gramUnit(with: .kilo))))
            }
        }

        var workouts: [SampleRecord] = []
        try await each(HKWorkoutTypeIdentifier, sources: &sources) { workouts.append($0) }
        for sample in workouts {
            guard case let .workout(workout) = sample.value else { continue }
            // Routes are asked for after the workouts have arrived (`each`'s body is synchronous);
            // each route is kept as the latitude/longitude pairs the report draws (at most 1,500
            // a route, 16 bytes a point): an app's thousand long routes in the period must not
            // hold gigabytes here.
            var routes: [[ReportData.RoutePoint]] = []
            if readsRoutes {
                routes = try await client.workoutRoutes(of: sample.uuid).map { route in
                    ReportData.drawnPoints(of: route.locations.map { ReportData.RoutePoint(latitude: $0.latitude, longitude: $0.longitude) })
                }
            }
            data.workouts.append(ReportData.Workout(
                start: SampleFormatter(displayUnit: nil, timeZone: timeZone).localTime(sample.startDate),
                activity: Self.activityName(workout.activityType), minutes: workout.duration / 60,
                distanceKilometres: workout.totalDistance.map { convert($0.value, $0.unit, to: .meterUnit(with: .kilo)) },
                energyKilocalories: workout.totalEnergyBurned.map { convert($0.value, $0.unit, to: .kilocalorie()) },
                source: SourceLabel.text(sample.source), kind: Self.routeKind(workout.activityType), routes: routes))
        }
        data.sources = sources.sorted()
        return data
    }

    /// Streams every sample of `type` in the period, oldest first, to `body`.
    private func each(_ type: String, sources: inout Set<String>, _ body: (SampleRecord) -> Void) async throws(HealthCtlError) {
        let spec = SampleQuerySpec(typeIdentifier: type, predicate: .dateRange(start: start, end: end, strictStart: false, strictEnd: false),
                                   sort: [SampleSort(.startDate, ascending: true)])
        for try await batch in client.querySamples(spec) {
            for sample in batch.samples {
                if let source = sample.source { sources.insert(SourceLabel.text(source)) }
                body(sample)
            }
        }
    }

    private func day(_ date: Date) -> String {
        CalendarDay(containing: date, in: timeZone).description
    }

    private func convert(_ value: Double, _ unit: String, to target: HKUnit) -> Double {
        (try? HKQuantity(unit: HKUnit.parse(unit), doubleValue: value).value(in: target)) ?? value
    }

    /// How a workout's route is coloured, by HealthKit's activity type raw value.
    static func routeKind(_ raw: UInt) -> ReportData.RouteKind {
        switch HKWorkoutActivityType(rawValue: raw) {
        case .walking?: .walk
        case .running?: .run
        case .cycling?, .handCycling?: .ride
        case .hiking?: .hike
        case .swimming?: .swim
        case .wheelchairWalkPace?, .wheelchairRunPace?: .wheelchair
        default: .other
        }
    }

    /// `Running` for HKWorkoutActivityTypeRunning; the number for one without a name.
    static func activityName(_ raw: UInt) -> String {
        guard let name = HKObjCEnumNames.workoutActivityTypes.filter({ $0.value == raw }).map(\.key).min() else { return "activity \(raw)" }
        return String(name.dropFirst("HKWorkoutActivityType".count))
    }
}
