import Foundation
import HealthModel
import Testing
import TestSupport

/// A workout builder's route and a changed live data source, written as Apple documents them
/// (Tests/EndToEndClient/WorkoutRouteSnippets.swift, LiveDataSourceSnippets.swift), run as
/// sandboxed apps against a real healthd.
extension AppleSnippetTests {
    static let cyclingPower = "HKQuantityTypeIdentifierCyclingPower"

    /// HKWorkoutBuilder.h, seriesBuilderForType: "Retrieves, and creates if it does not already
    /// exist, the series builder for the specified type. The series constructed with the
    /// returned builder will be associated with the workout when it is finished." — and
    /// HKWorkoutRouteBuilder.h: with a workout builder the app "should never call"
    /// finishRoute; "The route will be finished when you finish the workout builder." For the
    /// plain and the live builder: the same route builder on every call, none for heartbeats,
    /// the route saved with the workout holding every location inserted, readable by another
    /// app through the workout; finishRoute afterwards returns that route; the builder is then
    /// finished.
    @Test(arguments: ["live", "plain"])
    func theWorkoutBuilderFinishesTheRouteOfItsSeriesBuilder(_ kind: String) async throws {
        let broker = try BrokerProcess()
        let recorder = try await broker.installClient("org.test.route-recorder-\(kind)")
        let reader = try await broker.installClient("org.test.route-reader-\(kind)")
        for type in [HKWorkoutTypeIdentifier, HKWorkoutRouteTypeIdentifier] {
            try await broker.set(recorder, "share", type, allowed: true)
            try await broker.set(reader, "read", type, allowed: true)
        }
        let result = try await broker.runApp(recorder, ["workout-snippet", "workout-route", kind, "30"])
        let invalid = HKError.Code.errorInvalidArgument.rawValue
        #expect(result.okValue == "1 30 true", "\(result)")
        #expect(result.lines.contains("same-builder true"), "\(result)")
        #expect(result.lines.contains("heartbeat-builder nil"), "\(result)")
        #expect(result.lines.contains("early refused \(invalid)"), "\(result)")
        #expect(result.lines.contains("late refused \(invalid)"), "\(result)")
        let inserted = try #require(result.lines.first { $0.hasPrefix("digest ") }?.dropFirst("digest ".count), "\(result)")
        #expect(inserted.hasPrefix("30:"), "\(result)")
        #expect(result.lines.contains("read \(inserted)"), "\(result)")

        let workout = try #require(result.lines.first { $0.hasPrefix("workout ") }?.split(separator: " ").last.map(String.init))
        let read = try await broker.runApp(reader, ["query-route", workout])
        #expect(read.okValue == "1", "\(read)")
        #expect(read.lines.contains("digest \(inserted)"), "\(read)")
    }

    /// Nothing is lost when the workout is refused (here: the app may save routes but not yet
    /// workouts): no route exists after the refusal, and once workouts are granted, finishing
    /// the same builder again saves the workout with the whole route.
    @Test func aRefusedWorkoutLeavesNoRouteAndARetrySavesBoth() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.route-retry")
        try await broker.set(app, "share", HKWorkoutRouteTypeIdentifier, allowed: true)
        try await broker.set(app, "share", HKWorkoutTypeIdentifier, allowed: false)
        let live = try LiveApp(app, ["workout-snippet", "workout-route-retry", "30"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("refused"), "\(live.lines)")
        #expect(live.lines.contains("routes-after-refusal 0"), "\(live.lines)")

        try await broker.set(app, "share", HKWorkoutTypeIdentifier, allowed: true)
        let result = await live.finish(timeout: 90)
        #expect(result.okValue == "1 30", "\(result)")
        let inserted = try #require(result.lines.first { $0.hasPrefix("digest ") }?.dropFirst("digest ".count), "\(result)")
        #expect(result.lines.contains("read \(inserted)"), "\(result)")
    }

    /// The other failure: the workout is saved but its route is refused (sharing routes was
    /// revoked after the locations went in). finishWorkout() throws; once routes may be shared
    /// again, calling it again finishes the route with the workout already saved — one workout
    /// in the store, never a second — and the route holds every location.
    @Test func aRouteRefusedAfterItsWorkoutIsFinishedByTheNextFinishWorkout() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.route-refused")
        for type in [HKWorkoutTypeIdentifier, HKWorkoutRouteTypeIdentifier] {
            try await broker.set(app, "share", type, allowed: true)
        }
        let live = try LiveApp(app, ["workout-snippet", "workout-route-refused", "30"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("inserted"), "\(live.lines)")
        try await broker.set(app, "share", HKWorkoutRouteTypeIdentifier, allowed: false)
        #expect(try await live.waitForLine("route-refused"), "\(live.lines)")
        #expect(live.lines.contains("first refused \(HKError.Code.errorAuthorizationDenied.rawValue)"), "\(live.lines)")

        try await broker.set(app, "share", HKWorkoutRouteTypeIdentifier, allowed: true)
        let result = await live.finish(timeout: 90)
        #expect(result.okValue == "1 1 30", "\(result)")
        #expect(result.lines.contains("same-workout true"), "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkliveworkoutdatasource: typesToCollect holds
    /// the configuration's defaults (heart rate, active energy, the activity's distance);
    /// enableCollection(for:predicate:) adds a type collected only where the predicate matches;
    /// disableCollection(for:) drops one. Another app saves energy, power of 150 W and 250 W and
    /// heart rates of 100 and 140 during the session; the recorder may read all of them, so
    /// only the data source decides: the 150 W sample (outside the predicate) and the energy
    /// (disabled) are not collected, in the live statistics or the saved workout's.
    @Test func theDataSourceCollectsEnabledTypesByTheirPredicateAndNotDisabledOnes() async throws {
        let broker = try BrokerProcess()
        let recorder = try await broker.installClient("org.test.data-source-recorder")
        let writer = try await broker.installClient("org.test.data-source-sensor")
        for type in [Self.heartRate, Self.activeEnergy, Self.cyclingPower] {
            try await broker.set(writer, "share", type, allowed: true)
            try await broker.set(recorder, "read", type, allowed: true)
        }
        try await broker.set(recorder, "share", HKWorkoutTypeIdentifier, allowed: true)
        // The saved workout keeps statistics of types the recorder may share only
        // (`HKWorkoutBuilder.shareableTypes`, red team 23 F4): power and heart rate.
        for type in [Self.heartRate, Self.cyclingPower] { try await broker.set(recorder, "share", type, allowed: true) }

        let live = try LiveApp(recorder, ["workout-snippet", "workout-data-source", "140"], adminSocket: broker.adminSocket)
        let deadline = Date().addingTimeInterval(120)
        var start: Double?
        while start == nil, Date() < deadline {
            start = live.lines.first { $0.hasPrefix("collecting ") }.flatMap { Double($0.dropFirst("collecting ".count)) }
            try await Task.sleep(for: .milliseconds(20))
        }
        let collecting = try #require(start, "the recorder never started collecting: \(live.lines)")
        // The excluded samples first: had they been collected, they would arrive no later.
        for (type, value, unit, offset) in [(Self.activeEnergy, "50", "kcal", 0.01), (Self.cyclingPower, "150", "W", 0.02),
                                            (Self.cyclingPower, "250", "W", 0.03), (Self.heartRate, "100", "count/min", 0.04),
                                            (Self.heartRate, "140", "count/min", 0.05)] {
            let saved = try await broker.runApp(writer, ["save", type, value, unit, String(collecting + offset),
                                                         String(collecting + offset + 0.005)])
            #expect(saved.okValue != nil, "\(saved)")
        }
        let result = await live.finish(timeout: 60)
        #expect(result.lines.contains("types-default ActiveEnergyBurned,DistanceCycling,HeartRate"), "\(result)")
        #expect(result.lines.contains("types-changed CyclingPower,DistanceCycling,HeartRate"), "\(result)")
        #expect(result.lines.contains("power 250.0 250.0 250.0"), "\(result)")
        // 100 and 140 bpm over equal 5 ms: the time-weighted average is 120. Dates are kept to
        // the microsecond (`microsecondsSince1970`), so each 5 ms may come out a microsecond
        // longer or shorter depending on where `collecting` falls: within 0.05 bpm of 120.
        let heartRate = result.lines.first { $0.hasPrefix("heart-rate ") }.flatMap { Double($0.dropFirst("heart-rate ".count)) }
        #expect(heartRate.map { abs($0 - 120) < 0.05 } == true, "\(result)")
        #expect(result.lines.contains("energy none"), "\(result)")
        #expect(result.lines.contains("workout-statistics CyclingPower,HeartRate"), "\(result)")
        #expect(result.lines.contains("workout-power 250.0"), "\(result)")
        #expect(result.okValue == "\(Self.cyclingPower),\(Self.heartRate)", "\(result)")
    }
}
