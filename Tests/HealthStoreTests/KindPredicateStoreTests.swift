import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Issue 15's workout, category-list and electrocardiogram predicates in the store: the SQL
/// (`SampleSQL+KindPredicates`) selects what Apple documents, at the bounds. Workouts B carries
/// every bound exactly; A lies just below and C just above it in every dimension, one dimension
/// at a time per test; D has no totals, statistics or activities and never matches a value test.
/// Pages: developer.apple.com/documentation/healthkit/hkquery/predicateforworkouts(with:duration:),
/// …/predicateforworkouts(with:totalenergyburned:), …(with:totaldistance:),
/// …(with:totalswimmingstrokecount:), …(with:totalflightsclimbed:),
/// …/predicateforworkouts(operatortype:quantitytype:sumquantity:) (and minimum/maximum/average),
/// …/predicateforworkouts(activitypredicate:), …/predicateforworkoutactivities(workoutactivitytype:),
/// …(operatortype:duration:), …(start:end:options:), …/predicateforcategorysamples(equalto:),
/// …/predicateforelectrocardiograms(classification:), …(symptomsstatus:).
@Suite(.timeLimit(.minutes(10))) struct KindPredicateStoreTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let owner = SourceRecord(bundleIdentifier: "org.example.owner", name: "Owner", version: "1")
    static let other = SourceRecord(bundleIdentifier: "org.example.other", name: "Other", version: "1")
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let everything = Visibility(scope: .allSources, workouts: .allSources, correlations: .allSources)

    /// The bound every value test compares with: B's value.
    static let bound = (duration: 1800.0, energy: 300.0, distance: 10_000.0, strokes: 100.0, flights: 10.0, heartRate: 140.0 / 60,
                        activityHeartRate: 200.0 / 60)

    /// A (offset -1), B (0), C (+1): every total and the heart-rate statistics one unit off B's.
    static func workout(_ offset: Double, activities: [WorkoutActivityRecord]? = nil, at minute: Double = 0) -> SampleRecord {
        let begin = start.addingTimeInterval(minute * 3600)
        let hr = RecordedQuantity(bound.heartRate + offset / 60, unit: "count/s")
        let statistics = WorkoutStatisticsRecord(quantityType: heartRate, startDate: begin, endDate: begin.addingTimeInterval(1800),
                                                 average: hr, minimum: hr, maximum: hr)
        let energy = WorkoutStatisticsRecord(quantityType: HKQuantityTypeIdentifier.activeEnergyBurned.rawValue, startDate: begin,
                                             endDate: begin.addingTimeInterval(1800), sum: RecordedQuantity(bound.energy + offset, unit: "kcal"))
        // The activity's heart rate is one count/s above the workout's, so a test of one never
        // passes by reading the other's row.
        let activityHR = RecordedQuantity(bound.activityHeartRate + offset / 60, unit: "count/s")
        let activityStatistics = WorkoutStatisticsRecord(quantityType: heartRate, startDate: begin, endDate: begin.addingTimeInterval(1800),
                                                         average: activityHR, minimum: activityHR, maximum: activityHR)
        let activity = WorkoutActivityRecord(uuid: UUID(), activityType: HKWorkoutActivityType.running.rawValue, locationType: 2,
                                             swimmingLocationType: 0, startDate: begin,
                                             endDate: begin.addingTimeInterval(bound.duration + offset), statistics: [activityStatistics])
        return SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: begin,
                            endDate: begin.addingTimeInterval(3600),
                            value: .workout(WorkoutValue(
                                activityType: HKWorkoutActivityType.running.rawValue, duration: bound.duration + offset,
                                totalEnergyBurned: RecordedQuantity(bound.energy + offset, unit: "kcal"),
                                totalDistance: RecordedQuantity(bound.distance + offset, unit: "m"),
                                totalSwimmingStrokeCount: RecordedQuantity(bound.strokes + offset, unit: "count"),
                                totalFlightsClimbed: RecordedQuantity(bound.flights + offset, unit: "count"),
                                activities: activities ?? [activity], statistics: [statistics, energy])))
    }

    /// D: a workout with nothing but its duration.
    static func bare() -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: start.addingTimeInterval(600),
                     value: .workout(WorkoutValue(activityType: HKWorkoutActivityType.yoga.rawValue, duration: 600)))
    }

    /// A, B, C, D stored; their UUIDs in that order.
    static func stored(_ database: HealthDatabase, source: SourceRecord = owner) async throws -> [UUID] {
        try await database.samples.insert([workout(-1, at: 0), workout(0, at: 1), workout(1, at: 2), bare()], source: source)
    }

    static func workouts(_ database: HealthDatabase, _ predicate: SamplePredicate, _ visibility: Visibility = everything) throws -> Set<UUID> {
        var found = Set<UUID>()
        try database.samples.query(SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier, predicate: predicate), scope: visibility) {
            found.formUnion($0.map(\.uuid))
        }
        return found
    }

    /// Apple's rule for a comparison against B's value: A < B < C, D has no value.
    static func expected(_ op: ComparisonOperator, _ uuids: [UUID]) -> Set<UUID> {
        Set([(-1.0, uuids[0]), (0, uuids[1]), (1, uuids[2])].filter { op.evaluate($0.0, 0) }.map(\.1))
    }

    static let totals: [(WorkoutTotal, Double)] = [
        (.duration, bound.duration), (.energyBurned, bound.energy), (.distance, bound.distance),
        (.swimmingStrokeCount, bound.strokes), (.flightsClimbed, bound.flights),
    ]

    @Test(arguments: ComparisonOperator.allCases)
    func eachTotalComparesAtItsBound(op: ComparisonOperator) async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuids = try await Self.stored(database)
        for (total, value) in Self.totals {
            let found = try Self.workouts(database, .workoutValue(.total(total, op, value)))
            // D has a duration (600 s), so it matches `<` / `<=` / `!=` on duration only.
            var expected = Self.expected(op, uuids)
            if total == .duration, op.evaluate(600, value) { expected.insert(uuids[3]) }
            #expect(found == expected, "\(total) \(op)")
        }
    }

    @Test(arguments: ComparisonOperator.allCases)
    func eachStatisticComparesAtItsBound(op: ComparisonOperator) async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuids = try await Self.stored(database)
        for statistic in [WorkoutStatisticTest.Statistic.average, .minimum, .maximum] {
            let test = WorkoutStatisticTest(quantityType: Self.heartRate, statistic: statistic, op: op, value: Self.bound.heartRate)
            #expect(try Self.workouts(database, .workoutValue(.statistic(test))) == Self.expected(op, uuids), "\(statistic) \(op)")
            var activityTest = test
            activityTest.value = Self.bound.activityHeartRate
            #expect(try Self.workouts(database, .workoutValue(.activity(.statistic(activityTest)))) == Self.expected(op, uuids),
                    "activity \(statistic) \(op)")
        }
        let sum = WorkoutStatisticTest(quantityType: HKQuantityTypeIdentifier.activeEnergyBurned.rawValue, statistic: .sum, op: op,
                                       value: Self.bound.energy)
        #expect(try Self.workouts(database, .workoutValue(.statistic(sum))) == Self.expected(op, uuids), "sum \(op)")
        // Heart rate has no sum: nothing matches, whatever the operator.
        let noSum = WorkoutStatisticTest(quantityType: Self.heartRate, statistic: .sum, op: op, value: 0)
        #expect(try Self.workouts(database, .workoutValue(.statistic(noSum))).isEmpty)
    }

    @Test(arguments: ComparisonOperator.allCases)
    func activityDurationComparesAtItsBound(op: ComparisonOperator) async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuids = try await Self.stored(database)
        #expect(try Self.workouts(database, .workoutValue(.activity(.duration(op, Self.bound.duration)))) == Self.expected(op, uuids))
    }

    /// A compound activity test is applied to one activity at a time: a workout whose running
    /// activity is short and whose long activity is cycling does not pass "running and long".
    @Test func anActivityTestHoldsForOneActivity() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let begin = Self.start
        let shortRun = WorkoutActivityRecord(uuid: UUID(), activityType: HKWorkoutActivityType.running.rawValue, locationType: 2,
                                             swimmingLocationType: 0, startDate: begin, endDate: begin.addingTimeInterval(100))
        let longRide = WorkoutActivityRecord(uuid: UUID(), activityType: HKWorkoutActivityType.cycling.rawValue, locationType: 2,
                                             swimmingLocationType: 0, startDate: begin.addingTimeInterval(100),
                                             endDate: begin.addingTimeInterval(2000))
        let uuids = try await database.samples.insert([Self.workout(0, activities: [shortRun, longRide]), Self.workout(0, at: 1)],
                                                      source: Self.owner)
        let running = WorkoutActivityTest.activityType(HKWorkoutActivityType.running.rawValue)
        let long = WorkoutActivityTest.duration(.greaterThanOrEqualTo, 1800)
        #expect(try Self.workouts(database, .workoutValue(.activity(.and([running, long])))) == [uuids[1]])
        #expect(try Self.workouts(database, .and([.workoutValue(.activity(running)), .workoutValue(.activity(long))])) == Set(uuids))
        #expect(try Self.workouts(database, .workoutValue(.activity(.not(running)))) == [uuids[0]])
        #expect(try Self.workouts(database, .workoutValue(.activity(.or([])))).isEmpty)
    }

    /// The activity date range follows the sample rule: overlap without options; `.strictStartDate`
    /// needs start ≥ S; `.strictEndDate` needs end < E (an activity ending exactly at E is out).
    @Test func activityDatesFollowTheSampleRule() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuids = try await Self.stored(database)
        let b = Self.start.addingTimeInterval(3600)  // B's activity: [b, b + 1800]
        func found(_ start: Date?, _ end: Date?, _ strictStart: Bool, _ strictEnd: Bool) throws -> Set<UUID> {
            try Self.workouts(database, .workoutValue(.activity(.dateRange(start: start, end: end, strictStart: strictStart, strictEnd: strictEnd))))
        }
        #expect(try found(b, b.addingTimeInterval(1800), true, true) == [])              // ends exactly at E
        #expect(try found(b, b.addingTimeInterval(1800.000001), true, true) == [uuids[1]])
        #expect(try found(b.addingTimeInterval(0.000001), nil, true, false) == [uuids[2]])  // starts before S
        #expect(try found(b.addingTimeInterval(1800), b.addingTimeInterval(1800.5), false, false) == [uuids[1]])  // touches S
        #expect(try found(nil, b, false, false) == [uuids[0]])                             // starts exactly at E: out
    }

    /// A workout the reader may not see never matches, whatever the test: the predicates are
    /// evaluated only on visible rows.
    @Test func aHiddenWorkoutNeverMatches() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let hidden = try await Self.stored(database, source: Self.other)
        let own = try await Self.stored(database)
        let scope = Visibility(scope: .ownSamples(appID: Self.owner.bundleIdentifier), workouts: .ownSamples(appID: Self.owner.bundleIdentifier),
                               correlations: .ownSamples(appID: Self.owner.bundleIdentifier))
        let tests: [WorkoutTest] = [
            .total(.energyBurned, .greaterThanOrEqualTo, 0), .statistic(WorkoutStatisticTest(quantityType: Self.heartRate, statistic: .average,
                                                                                              op: .greaterThan, value: 0)),
            .activity(.activityType(HKWorkoutActivityType.running.rawValue)),
        ]
        for test in tests {
            let found = try Self.workouts(database, .workoutValue(test), scope)
            #expect(found.isDisjoint(with: hidden), "\(test)")
            #expect(found == Set(own.prefix(3)), "\(test)")
        }
    }

    /// On another sample type a workout or electrocardiogram predicate matches nothing.
    @Test func onAnotherTypeNothingMatches() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert([ObjectDeleterTests.heartRate(minute: 1), SeriesRepositoryTests.ecg()], source: Self.owner)
        _ = try await Self.stored(database)
        for predicate: SamplePredicate in [.workoutValue(.total(.duration, .greaterThanOrEqualTo, 0)), .electrocardiogram(.classification(2))] {
            var count = 0
            try database.samples.query(SampleQuerySpec(typeIdentifier: Self.heartRate, predicate: predicate), scope: Self.everything) { count += $0.count }
            #expect(count == 0)
        }
    }

    @Test func electrocardiogramsMatchByClassificationAndSymptoms() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        func ecg(_ classification: Int, _ symptoms: Int) -> SampleRecord {
            var record = SeriesRepositoryTests.ecg()
            record.value = .electrocardiogram(ElectrocardiogramValue(classification: classification, symptomsStatus: symptoms,
                                                                     averageHeartRate: 70, samplingFrequency: 512, voltageCount: 2,
                                                                     voltages: [0.001, 0.002]))
            return record
        }
        let uuids = try await database.samples.insert([ecg(1, 1), ecg(2, 2), ecg(100, 0)], source: Self.owner)
        func found(_ test: ElectrocardiogramTest) throws -> Set<UUID> {
            var result = Set<UUID>()
            try database.samples.query(SampleQuerySpec(typeIdentifier: HKElectrocardiogramTypeIdentifier, predicate: .electrocardiogram(test)),
                                       scope: Self.everything) { result.formUnion($0.map(\.uuid)) }
            return result
        }
        #expect(try found(.classification(2)) == [uuids[1]])
        #expect(try found(.classification(100)) == [uuids[2]])
        #expect(try found(.classification(3)) == [])
        #expect(try found(.symptomsStatus(1)) == [uuids[0]])
        #expect(try found(.symptomsStatus(0)) == [uuids[2]])
    }

    @Test func categoryValuesMatchAnyListedValue() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let sleep = HKCategoryTypeIdentifier.sleepAnalysis.rawValue
        let uuids = try await database.samples.insert((0...5).map { value in
            SampleRecord(uuid: UUID(), typeIdentifier: sleep, startDate: Self.start.addingTimeInterval(Double(value) * 60),
                         endDate: Self.start.addingTimeInterval(Double(value) * 60 + 30), value: .category(value))
        }, source: Self.owner)
        func found(_ values: Set<Int>) throws -> Set<UUID> {
            var result = Set<UUID>()
            try database.samples.query(SampleQuerySpec(typeIdentifier: sleep, predicate: .categoryValues(values)), scope: Self.everything) {
                result.formUnion($0.map(\.uuid))
            }
            return result
        }
        #expect(try found([3, 4, 5]) == Set(uuids[3...5]))
        #expect(try found([0]) == [uuids[0]])
        #expect(try found([]) == [])
        #expect(try found([6, -1, Int.max, Int.min]) == [])
        #expect(try found(Set(0...5)) == Set(uuids))
    }
}
