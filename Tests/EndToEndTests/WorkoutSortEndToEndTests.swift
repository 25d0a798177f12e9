import Foundation
import Testing
import TestSupport

/// Issue 15's workout sort keys through a real healthd, written as Apple's header declares them
/// (HKWorkout.h, "Sort Identifiers": HKWorkoutSortIdentifierDuration, …TotalDistance,
/// …TotalEnergyBurned, …TotalSwimmingStrokeCount, …TotalFlightsClimbed; developer.apple.com/
/// documentation/healthkit/hkworkoutsortidentifierduration and siblings) in
/// `NSSortDescriptor(key:ascending:)` of an HKSampleQuery of workouts
/// (Tests/EndToEndClient/WorkoutSortSnippets.swift). The reader's four workouts are in a different
/// order for every key, totals are saved in other units than the stored ones (800 kJ, 6 mi), and
/// the fourth has no total: a missing total sorts first ascending, last descending.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WorkoutSortEndToEndTests {
    static let workoutType = "HKWorkoutTypeIdentifier"
    /// 2024-05-01 08:00 UTC and the three days after it.
    static let day = [0, 1_714_550_400, 1_714_636_800, 1_714_723_200, 1_714_809_600]

    /// Day 1: 40 min, 800 kJ (191 kcal), 2 km, 300 strokes; day 2: 20 min, 250 kcal, 6 mi
    /// (9,656 m), 7 flights; day 3: 30 min, 100 kcal, 7,000 m, 100 strokes; day 4: 10 min.
    static let reader: [[String]] = [
        ["\(day[1])", "40", "--energy", "800:kJ", "--distance", "2:km", "--strokes", "300"],
        ["\(day[2])", "20", "--energy", "250:kcal", "--distance", "6:mi", "--flights", "7"],
        ["\(day[3])", "30", "--energy", "100:kcal", "--distance", "7000:m", "--strokes", "100"],
        ["\(day[4])", "10"],
    ]

    /// What each key gives, in days: ascending then descending (ties in store order).
    static let orders: [(String, [Int], [Int])] = [
        ("duration", [4, 2, 3, 1], [1, 3, 2, 4]),
        ("totalDistance", [4, 1, 3, 2], [2, 3, 1, 4]),
        ("totalEnergyBurned", [4, 3, 1, 2], [2, 1, 3, 4]),
        ("totalSwimmingStrokeCount", [2, 4, 3, 1], [1, 3, 2, 4]),
        ("totalFlightsClimbed", [1, 3, 4, 2], [2, 1, 3, 4]),
    ]

    static func expectedLines(limit: Int) -> [String] {
        func line(_ head: String, _ days: [Int]) -> String {
            ([head] + (limit > 0 ? Array(days.prefix(limit)) : days).map { "\(day[$0])" }).joined(separator: " ")
        }
        return orders.flatMap { [line("\($0.0) asc", $0.1), line("\($0.0) desc", $0.2)] } + [line("descriptor", [1, 3, 2, 4])]
    }

    static func save(_ broker: BrokerProcess, _ app: String, _ workouts: [[String]]) async throws {
        for workout in workouts {
            let saved = try await broker.runApp(app, ["workout-snippet", "workout-sort-save"] + workout)
            #expect(saved.status == 0 && saved.okValue != nil, "\(saved)")
        }
    }

    static func sorted(_ broker: BrokerProcess, _ app: String, limit: Int, type: String? = nil) async throws -> [String] {
        let result = try await broker.runApp(app, ["workout-snippet", "workout-sort", "\(limit)"] + (type.map { [$0] } ?? []))
        #expect(result.status == 0, "\(result)")
        return result.lines
    }

    @Test func eachWorkoutSortKeyOrdersAsAppleDeclares() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.workout-sort")
        try await broker.set(app, "share", Self.workoutType, allowed: true)
        try await broker.set(app, "read", Self.workoutType, allowed: true)
        try await Self.save(broker, app, Self.reader)
        for limit in [0, 2] {
            #expect(try await Self.sorted(broker, app, limit: limit) == Self.expectedLines(limit: limit), "limit \(limit)")
        }
    }

    /// The keys name HKWorkout properties: a step-count query refuses each with
    /// errorInvalidArgument (3) rather than ignoring it.
    @Test func aWorkoutSortKeyOnAnotherTypeIsRefused() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.workout-sort-steps")
        let lines = try await Self.sorted(broker, app, limit: 0, type: "HKQuantityTypeIdentifierStepCount")
        #expect(lines == Self.orders.flatMap { ["\($0.0) asc error 3", "\($0.0) desc error 3"] }, "\(lines)")
    }

    /// DESIGN.md §7.3: a reader without read permission for workouts gets, for every key, order
    /// and limit, the lines a store holding only its own workouts gives — while another app's
    /// workouts, saved first, have totals below, between and above the reader's.
    @Test func hiddenWorkoutsChangeNoOrderAndNoCut() async throws {
        let twin = try BrokerProcess(), full = try BrokerProcess()
        let other = try await full.installClient("org.test.workout-sort-other")
        try await full.set(other, "share", Self.workoutType, allowed: true)
        try await Self.save(full, other, [
            ["\(Self.day[1] + 3600)", "35", "--energy", "150:kcal", "--distance", "8000:m", "--strokes", "200"],
            ["\(Self.day[2] + 3600)", "5", "--energy", "10:kcal", "--distance", "100:m", "--flights", "1"],
            ["\(Self.day[3] + 3600)", "90", "--energy", "900:kcal", "--distance", "42:km", "--flights", "90"],
        ])
        var outputs: [[String]] = []
        for broker in [twin, full] {
            let app = try await broker.installClient("org.test.workout-sort-reader")
            try await broker.set(app, "share", Self.workoutType, allowed: true)
            try await broker.set(app, "read", Self.workoutType, allowed: false)
            try await Self.save(broker, app, Self.reader)
            var lines: [String] = []
            for limit in [0, 1, 2] { lines += try await Self.sorted(broker, app, limit: limit) }
            outputs.append(lines)
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0] == [0, 1, 2].flatMap { Self.expectedLines(limit: $0) })
    }
}
