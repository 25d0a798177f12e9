import Foundation
import Testing
import TestSupport

/// Issue 15's workout, activity and category-list predicates through a real healthd: each is
/// built by an app with the `HKQuery` function Apple names (Tests/EndToEndClient/
/// KindPredicateCommands.swift) and run by each query kind that takes a predicate — HKSampleQuery,
/// HKAnchoredObjectQuery, HKSampleQueryDescriptor, HKObserverQuery (statistics queries take
/// quantity types, which these predicates do not select) — against workouts imported with
/// `healthctl import`: A just below every bound, B exactly at it, C just above it, D (cycling)
/// with no totals or statistics. Apple's rule at the bounds (developer.apple.com/documentation/
/// healthkit/hkquery/predicateforworkouts(with:duration:), …(with:totalenergyburned:),
/// …(with:totaldistance:), …/predicateforworkouts(operatortype:quantitytype:averagequantity:),
/// …/predicateforworkouts(activitypredicate:), …/predicateforworkoutactivities(workoutactivitytype:),
/// …(operatortype:duration:), …(operatortype:quantitytype:averagequantity:),
/// …/predicateforcategorysamples(equalto:)): a workout matches when its value compares true with
/// the bound; one without the value never matches; a workout the app may not read never does.
@Suite(.serialized, .timeLimit(.minutes(10))) struct KindPredicateEndToEndTests {
    static let workoutType = "HKWorkoutTypeIdentifier"
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    static let queries = ["sample", "anchored", "descriptor"]

    /// Start dates (seconds since 1970, UTC) of A, B, C and D: 2024-05-01…04 08:00 UTC.
    static let a = 1_714_550_400, b = a + 86_400, c = b + 86_400, d = c + 86_400

    /// One running workout `minutes` long with its totals and heart-rate statistics offset by
    /// `offset` from B's (30 min, 300 kcal, 10,000 m, 140 count/min), and one running activity
    /// as long as the workout with the same heart-rate statistics.
    static func workout(day: Int, minutes: Int, offset: Int) -> String {
        let date = "2024-05-0\(day)"
        let end = String(format: "08:%02d:00", minutes)
        let hr = 140 + offset
        return """
          <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="\(minutes)" durationUnit="min" totalDistance="\(10_000 + offset)" totalDistanceUnit="m" totalEnergyBurned="\(300 + offset)" totalEnergyBurnedUnit="kcal" sourceName="Watch" sourceVersion="10.0" startDate="\(date) 08:00:00 +0000" endDate="\(date) \(end) +0000">
           <WorkoutStatistics type="\(heartRate)" startDate="\(date) 08:00:00 +0000" endDate="\(date) \(end) +0000" average="\(hr)" minimum="\(hr)" maximum="\(hr)" unit="count/min"/>
           <WorkoutActivity uuid="\(UUID().uuidString)" startDate="\(date) 08:00:00 +0000" endDate="\(date) \(end) +0000" duration="\(minutes)" durationUnit="min">
            <WorkoutStatistics type="\(heartRate)" startDate="\(date) 08:00:00 +0000" endDate="\(date) \(end) +0000" average="\(hr)" minimum="\(hr)" maximum="\(hr)" unit="count/min"/>
           </WorkoutActivity>
          </Workout>

        """
    }

    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-05-05 09:00:00 +0000"/>

        """ + workout(day: 1, minutes: 29, offset: -1) + workout(day: 2, minutes: 30, offset: 0) + workout(day: 3, minutes: 31, offset: 1) + """
          <Workout workoutActivityType="HKWorkoutActivityTypeCycling" duration="10" durationUnit="min" sourceName="Watch" sourceVersion="10.0" startDate="2024-05-04 08:00:00 +0000" endDate="2024-05-04 08:10:00 +0000">
           <WorkoutActivity uuid="\(UUID().uuidString)" startDate="2024-05-04 08:00:00 +0000" endDate="2024-05-04 08:10:00 +0000" duration="10" durationUnit="min"/>
          </Workout>
        </HealthData>

        """

    /// The types the workouts' totals and statistics derive from: a workout reader sees another
    /// source's values only with their types' read permission (WorkoutValueRedactionTests).
    static let valueTypes = ["HKQuantityTypeIdentifierActiveEnergyBurned", "HKQuantityTypeIdentifierDistanceWalkingRunning", heartRate]

    /// A healthd holding A-D, and a reader app allowed to read workouts, their values' types and sleep.
    static func world() async throws -> (BrokerProcess, String) {
        let broker = try BrokerProcess()
        let path = broker.root + "/export.xml"
        try Data(export.utf8).write(to: URL(fileURLWithPath: path))
        let imported = try await broker.healthctl(["import", path, "--characteristics", "no"])
        #expect(imported.status == 0 && imported.stdout.contains("4 imported"), "\(imported)\n\(broker.log)")
        let app = try await broker.installClient("org.test.kind-predicates")
        for type in [workoutType, sleep] + valueTypes { try await broker.set(app, "read", type, allowed: true) }
        try await broker.set(app, "share", sleep, allowed: true)
        return (broker, app)
    }

    /// The start dates a query matched, or the error line.
    static func matches(_ broker: BrokerProcess, _ app: String, _ query: String, _ type: String, _ predicate: [String]) async throws -> [Int] {
        let result = try await broker.runApp(app, ["kind-predicate", query, type] + predicate)
        #expect(result.status == 0, "\(predicate) \(query): \(result)")
        return result.lines.compactMap { $0.hasPrefix("match ") ? Int($0.dropFirst(6)) : nil }
    }

    /// Apple's rule at the bound, B being exactly at it: A below, C above, D without the value.
    static func expected(_ op: String) -> [Int] {
        switch op {
        case "lt": [a]
        case "le": [a, b]
        case "gt": [c]
        case "ge": [b, c]
        case "eq": [b]
        default: [a, c]  // ne
        }
    }

    @Test func eachWorkoutPredicateMatchesAtItsBoundInEveryQueryKind() async throws {
        let (broker, app) = try await Self.world()
        // The bound in another unit where the predicate takes a quantity: healthd compares it in
        // the stored one (10 km = 10,000 m; 300 kcal = 1255.2 kJ; 140 count/min = 2.333… count/s).
        let predicates: [(String, [String])] = [
            ("energy", ["energy", "OP", "1255.2", "kJ"]),
            ("distance", ["distance", "OP", "10", "km"]),
            ("statistic", ["statistic", "avg", "OP", "140", "count/min", Self.heartRate]),
            ("activity statistic", ["activity-statistic", "max", "OP", "140", "count/min", Self.heartRate]),
        ]
        for query in Self.queries {
            for op in ["lt", "le", "gt", "ge", "eq", "ne"] {
                for (name, words) in predicates {
                    let found = try await Self.matches(broker, app, query, Self.workoutType, words.map { $0 == "OP" ? op : $0 })
                    #expect(found == Self.expected(op), "\(name) \(op) in \(query)")
                }
                // D and its one activity last 10 minutes: below both duration bounds.
                var duration = Self.expected(op)
                if ["lt", "le", "ne"].contains(op) { duration.append(Self.d) }
                for words in [["duration", op, "1800"], ["activity-duration", op, "1800"]] {
                    let found = try await Self.matches(broker, app, query, Self.workoutType, words)
                    #expect(found == duration, "\(words) in \(query)")
                }
            }
            #expect(try await Self.matches(broker, app, query, Self.workoutType, ["activity-type", "37"]) == [Self.a, Self.b, Self.c])
            #expect(try await Self.matches(broker, app, query, Self.workoutType, ["activity-type", "13"]) == [Self.d])
        }
    }

    /// A unit of another dimension and an operator HealthKit does not take fail every query kind
    /// with errorInvalidArgument (HKError code 3) and the reason.
    @Test func refusedArgumentsFailEveryQueryKind() async throws {
        let (broker, app) = try await Self.world()
        for query in Self.queries {
            for words in [["energy", "gt", "1", "m"], ["duration", "like", "60"], ["activity-duration", "between", "60"],
                          ["statistic", "avg", "gt", "1", "kg", Self.heartRate]] {
                let result = try await broker.runApp(app, ["kind-predicate", query, Self.workoutType] + words)
                #expect(result.status == 3 && result.stdout.hasPrefix("error 3 "), "\(words) \(query): \(result)")
            }
        }
    }

    /// The app's own sleep samples (values 0-5), selected by a set of values.
    @Test func categoryValuesSelectTheListedValuesInEveryQueryKind() async throws {
        let (broker, app) = try await Self.world()
        for value in 0...5 {
            let start = Self.a + value * 600
            let saved = try await broker.runApp(app, ["save-category", Self.sleep, "\(value)", "\(start)", "\(start + 300)"])
            #expect(saved.status == 0, "\(saved)")
        }
        for query in Self.queries {
            #expect(try await Self.matches(broker, app, query, Self.sleep, ["category-in", "3,4,5"]) == [3, 4, 5].map { Self.a + $0 * 600 })
            #expect(try await Self.matches(broker, app, query, Self.sleep, ["category-in", "0,9"]) == [Self.a])
            #expect(try await Self.matches(broker, app, query, Self.sleep, ["category-in", ""]) == [])
            // HKCategoryValuePredicateProviding (iOS 16): asleep = unspecified (1), core, deep, REM (3-5).
            #expect(try await Self.matches(broker, app, query, Self.sleep, ["asleep"]) == [1, 3, 4, 5].map { Self.a + $0 * 600 })
        }
    }

    /// HKObserverQuery with a workout total and a category-list predicate: after the update
    /// HealthKit sends at start, a save just below the bound (299 kcal; sleep value 2) wakes
    /// nothing, and one at the bound (300 kcal; sleep value 3) wakes the observer.
    @Test func anObserverWakesOnlyForSavesThePredicateMatches() async throws {
        let (broker, reader) = try await Self.world()
        let writer = try await broker.installClient("org.test.kind-predicates-writer")
        for type in [Self.workoutType, Self.sleep] { try await broker.set(writer, "share", type, allowed: true) }
        let start = Self.d + 86_400
        let cases: [(type: String, predicate: [String], below: [String], at: [String])] = [
            (Self.workoutType, ["energy", "ge", "300", "kcal"],
             ["save-workout", "37", "\(start)", "\(start + 1800)", "--energy", "299:kcal"],
             ["save-workout", "37", "\(start + 3600)", "\(start + 5400)", "--energy", "300:kcal"]),
            (Self.sleep, ["category-in", "3,4"],
             ["save-category", Self.sleep, "2", "\(start)", "\(start + 600)"],
             ["save-category", Self.sleep, "3", "\(start + 600)", "\(start + 1200)"]),
        ]
        for (type, predicate, below, at) in cases {
            let live = try LiveApp(reader, ["kind-predicate", "observe:2", type] + predicate, adminSocket: broker.adminSocket)
            #expect(try await live.waitForLine("update 1"), "\(live.lines)")
            #expect(try await broker.runApp(writer, below).okValue != nil)
            // A correct broker never sends an update for the save below the bound; a wrong one
            // would within milliseconds, so this wait can only fail when the predicate is wrong.
            #expect(try await live.waitForLine("update 2", timeout: 1) == false, "\(predicate): \(live.lines)")
            #expect(try await broker.runApp(writer, at).okValue != nil)
            let result = await live.finish()
            #expect(result.lines == ["update 1", "update 2", "ok 2"], "\(predicate): \(result)")
        }
    }

    /// An app that may not read workouts sees only its own: the imported workouts, which match
    /// every predicate here, never match for it, and its own workout (B's values) does.
    @Test func aWorkoutTheAppMayNotReadNeverMatches() async throws {
        let (broker, _) = try await Self.world()
        let app = try await broker.installClient("org.test.kind-predicates-denied")
        try await broker.set(app, "share", Self.workoutType, allowed: true)
        try await broker.set(app, "read", Self.workoutType, allowed: false)
        let own = Self.d + 86_400
        let saved = try await broker.runApp(app, ["save-workout", "37", "\(own)", "\(own + 1800)", "--energy", "300:kcal", "--distance", "10000:m"])
        #expect(saved.status == 0, "\(saved)")
        for query in Self.queries {
            for words in [["energy", "ge", "0", "kcal"], ["duration", "ge", "0"], ["distance", "gt", "0", "m"]] {
                #expect(try await Self.matches(broker, app, query, Self.workoutType, words) == [own], "\(words) \(query)")
            }
            for words in [["activity-type", "37"], ["statistic", "avg", "gt", "0", "count/min", Self.heartRate]] {
                #expect(try await Self.matches(broker, app, query, Self.workoutType, words) == [], "\(words) \(query)")
            }
        }
    }
}
