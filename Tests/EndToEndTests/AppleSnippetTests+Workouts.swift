import Foundation
import HealthModel
import Testing
import TestSupport

/// Live workout recording written as Apple documents it (Tests/EndToEndClient/WorkoutSnippets.swift),
/// run as sandboxed apps against a real healthd: one app records the session, another saves
/// heart rate and energy meanwhile. Each test cites the page it follows.
extension AppleSnippetTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let activeEnergy = "HKQuantityTypeIdentifierActiveEnergyBurned"

    /// Runs the recorder's live session while `writer` saves two heart rates (100, then 140) and
    /// 50 kcal of energy inside it; returns the recorder's output.
    func recordWhileAnotherAppSaves(_ broker: BrokerProcess, recorder: String, writer: String) async throws -> ProcessResult {
        let live = try LiveApp(recorder, ["workout-snippet", "workout-live", "140"], adminSocket: broker.adminSocket)
        let deadline = Date().addingTimeInterval(120)
        var start: Double?
        while start == nil, Date() < deadline {
            start = live.lines.first { $0.hasPrefix("collecting ") }.flatMap { Double($0.dropFirst("collecting ".count)) }
            try await Task.sleep(for: .milliseconds(20))
        }
        guard let start else {
            Issue.record("the recorder never started collecting: \(live.lines)")
            return await live.finish()
        }
        // Energy first, so it would have arrived before the last heart rate if it could.
        for (type, value, unit, offset) in [(Self.activeEnergy, "50", "kcal", 0.01), (Self.heartRate, "100", "count/min", 0.02),
                                            (Self.heartRate, "140", "count/min", 0.03)] {
            let saved = try await broker.runApp(writer, ["save", type, value, unit, String(start + offset), String(start + offset + 0.005)])
            #expect(saved.okValue != nil, "\(saved)")
        }
        return await live.finish(timeout: 45)
    }

    func installRecorderAndWriter(_ broker: BrokerProcess, recorder: String, writer: String,
                                  recorderReadsEnergy: Bool, recorderSharesHeartRate: Bool = false) async throws {
        _ = try await broker.installClient(recorder)
        _ = try await broker.installClient(writer)
        for type in [Self.heartRate, Self.activeEnergy] { try await broker.set(writer, "share", type, allowed: true) }
        for type in [HKWorkoutTypeIdentifier, Self.activeEnergy] { try await broker.set(recorder, "share", type, allowed: true) }
        try await broker.set(recorder, "share", Self.heartRate, allowed: recorderSharesHeartRate)
        try await broker.set(recorder, "read", Self.heartRate, allowed: true)
        try await broker.set(recorder, "read", Self.activeEnergy, allowed: recorderReadsEnergy)
    }

    /// developer.apple.com/documentation/healthkit/hkliveworkoutbuilder and
    /// hkliveworkoutdatasource ("provides live data from an active workout session"): the
    /// builder collects the configured types saved during the session — here by another app —
    /// and its statistics are computed from them. The recorder may read heart rate but not
    /// active energy, so the other app's 50 kcal never reach it: its workout holds only its own
    /// 10 kcal. It may read heart rate but not share it, so the builder's heart-rate statistics
    /// (it waited for the last, 140) stay out of the saved workout: healthd stores a workout's
    /// statistics of a type only from an app that may share that type (red team, session 23, F4;
    /// `HKWorkoutBuilder.shareableTypes`). Session states and pause/resume events follow
    /// developer.apple.com/documentation/healthkit/hkworkoutsessionstate.
    @Test func aLiveBuilderCollectsAnotherAppsReadableSamplesDuringTheSession() async throws {
        let broker = try BrokerProcess()
        let recorder = "org.test.workout-recorder", writer = "org.test.workout-sensor"
        try await installRecorderAndWriter(broker, recorder: recorder, writer: writer, recorderReadsEnergy: false)
        let result = try await recordWhileAnotherAppSaves(broker, recorder: recorder, writer: writer)
        #expect(result.okValue == "none", "\(result)")
        #expect(result.lines.contains("states running,paused,running,stopped,ended"), "\(result)")
        #expect(result.lines.contains("events pause,resume 2"), "\(result)")
        #expect(result.lines.contains("collected \(Self.activeEnergy),\(Self.heartRate)")
                || result.lines.contains("collected \(Self.heartRate)"), "\(result)")
        #expect(result.lines.contains("energy 10.0 10.0"), "\(result)")

        // The stored workout: the statistics of the type it may share, only the recorder's own
        // sample associated.
        let workout = try #require(result.lines.first { $0.hasPrefix("workout ") }?.split(separator: " ").last.map(String.init))
        let stored = try await broker.runApp(recorder, ["workout-snippet", "workout-stored"])
        #expect(stored.lines.contains { $0.hasPrefix("workout \(workout) activities - statistics \(Self.activeEnergy) ")
            && $0.hasSuffix(" indoor false") }, "\(stored)")
        let associated = try await broker.runApp(recorder, ["query-associated", workout, Self.activeEnergy])
        #expect(associated.okValue == "1", "\(associated)")
        #expect(associated.lines.allSatisfy { !$0.contains(writer) }, "\(associated)")
    }

    /// The same session with read permission for active energy and share permission for heart
    /// rate: the other app's 50 kcal are collected and counted, so the test above fails if the
    /// builder ignored read grants in either direction, and the heart-rate statistics (100 and
    /// 140 collected: average 120) are saved with the workout.
    @Test func withReadPermissionTheOtherAppsEnergyIsCollectedToo() async throws {
        let broker = try BrokerProcess()
        let recorder = "org.test.workout-recorder2", writer = "org.test.workout-sensor2"
        try await installRecorderAndWriter(broker, recorder: recorder, writer: writer, recorderReadsEnergy: true,
                                           recorderSharesHeartRate: true)
        let result = try await recordWhileAnotherAppSaves(broker, recorder: recorder, writer: writer)
        #expect(result.okValue == "120", "\(result)")
        #expect(result.lines.contains("energy 60.0 60.0"), "\(result)")
        // Counted, but not associated: only the recorder's own samples are linked to its workout.
        let workout = try #require(result.lines.first { $0.hasPrefix("workout ") }?.split(separator: " ").last.map(String.init))
        let stored = try await broker.runApp(recorder, ["workout-snippet", "workout-stored"])
        #expect(stored.lines.contains { $0.hasPrefix("workout \(workout) activities - statistics \(Self.activeEnergy),\(Self.heartRate) ") },
                "\(stored)")
        let energy = try await broker.runApp(recorder, ["query-associated", workout, Self.activeEnergy])
        #expect(energy.okValue == "1" && !energy.stdout.contains(writer), "\(energy)")
        let heartRates = try await broker.runApp(recorder, ["query-associated", workout, Self.heartRate])
        #expect(heartRates.okValue == "0", "\(heartRates)")
    }

    /// developer.apple.com/documentation/healthkit/hkworkoutsession/pause(): HKHealthStore.pause(_:)
    /// "pauses the provided session if it is currently running" — a second pause does nothing —
    /// and calls a state does not allow reach the delegate's workoutSession(_:didFailWithError:)
    /// while the state stays (developer.apple.com/documentation/healthkit/hkworkoutsessiondelegate).
    @Test func illegalSessionTransitionsFailThroughTheDelegateAndKeepTheState() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.workout-illegal")
        let result = try await broker.runApp(app, ["workout-snippet", "workout-illegal"])
        let invalid = HKError.Code.errorInvalidArgument.rawValue
        #expect(result.okValue == "\(invalid),\(invalid),\(invalid),\(invalid) ended", "\(result)")
        #expect(result.lines.contains("states prepared,running,paused,stopped,ended"), "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkworkoutbuilder and hkworkoutactivity
    /// (iOS 16): activities added to a builder are saved with the workout and come back with it,
    /// an overlapping one is refused, and totals of strokes and flights come from the samples
    /// added (hkworkout/totalswimmingstrokecount, totalflightsclimbed).
    @Test func aMultiActivityWorkoutKeepsItsActivitiesStatisticsAndTotals() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.workout-triathlon")
        for type in [HKWorkoutTypeIdentifier, "HKQuantityTypeIdentifierSwimmingStrokeCount", "HKQuantityTypeIdentifierFlightsClimbed"] {
            try await broker.set(app, "share", type, allowed: true)
        }
        let result = try await broker.runApp(app, ["workout-snippet", "workout-activities"])
        #expect(result.okValue == "3 1800.0", "\(result)")
        #expect(result.lines.contains("refused \(HKError.Code.errorInvalidArgument.rawValue)"), "\(result)")
        let stored = try await broker.runApp(app, ["workout-snippet", "workout-stored"])
        #expect(stored.okValue == "1", "\(stored)")
        #expect(stored.lines.contains { $0.contains(" activities 46:1200,13:1200,37:1200 ")
            && $0.contains(" strokes 300.0 flights 4.0 ") }, "\(stored)")
        // Both added samples are associated with the workout.
        let workout = try #require(result.lines.first { $0.hasPrefix("workout ") }.map { String($0.split(separator: " ")[1]) })
        let strokes = try await broker.runApp(app, ["query-associated", workout, "HKQuantityTypeIdentifierSwimmingStrokeCount"])
        #expect(strokes.okValue == "1", "\(strokes)")
    }

    /// finishWorkout() while the store is locked: the added samples and the workout are saves,
    /// journaled like any (developer.apple.com/documentation/healthkit/hkworkoutbuilder/finishworkout(completion:)
    /// succeeds as a save does), and at unlock the workout arrives with its activities, totals
    /// and association to the samples saved before it in the same journal.
    @Test func aWorkoutFinishedWhileTheStoreIsLockedMergesWithItsAssociationsAtUnlock() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.workout-locked")
        for type in [HKWorkoutTypeIdentifier, "HKQuantityTypeIdentifierSwimmingStrokeCount", "HKQuantityTypeIdentifierFlightsClimbed"] {
            try await broker.set(app, "share", type, allowed: true)
        }
        let lock = try await broker.healthctl(["lock"])
        #expect(lock.status == 0, "\(lock)")
        let result = try await broker.runApp(app, ["workout-snippet", "workout-activities"])
        #expect(result.okValue == "3 1800.0", "\(result)")
        let unlock = try await broker.healthctl(["unlock"])
        #expect(unlock.status == 0, "\(unlock)")
        #expect(unlock.stdout.contains("merged"), "the saves were journaled: \(unlock)")

        let stored = try await broker.runApp(app, ["workout-snippet", "workout-stored"])
        #expect(stored.okValue == "1", "\(stored)")
        #expect(stored.lines.contains { $0.contains(" activities 46:1200,13:1200,37:1200 ")
            && $0.contains(" strokes 300.0 flights 4.0 ") }, "\(stored)")
        let workout = try #require(result.lines.first { $0.hasPrefix("workout ") }.map { String($0.split(separator: " ")[1]) })
        for type in ["HKQuantityTypeIdentifierSwimmingStrokeCount", "HKQuantityTypeIdentifierFlightsClimbed"] {
            let associated = try await broker.runApp(app, ["query-associated", workout, type])
            #expect(associated.okValue == "1", "\(type): \(associated)")
        }
    }

    /// developer.apple.com/documentation/healthkit/hkworkoutsession/beginnewactivity(configuration:date:metadata:)
    /// and endcurrentactivity(on:): the session's delegate hears didBeginActivityWith /
    /// didEndActivityWith, the live builder's didBegin / didEnd, `currentActivity` is the one in
    /// progress, and the saved workout holds the activities.
    @Test func sessionActivitiesReachBothDelegatesAndTheSavedWorkout() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.workout-multisport")
        try await broker.set(app, "share", HKWorkoutTypeIdentifier, allowed: true)
        let result = try await broker.runApp(app, ["workout-snippet", "workout-session-activities"])
        #expect(result.okValue == "46:120,37:120", "\(result)")
        #expect(result.lines.filter { $0.hasPrefix("current ") } == ["current 46 true", "current 37 true"], "\(result)")
        let calls = result.lines.first { $0.hasPrefix("calls ") }?.dropFirst("calls ".count).split(separator: ",").map(String.init) ?? []
        // Two queues: each delegate's own calls are in order.
        #expect(calls.filter { $0.hasPrefix("session-") } == ["session-begin:46", "session-end:46", "session-begin:37", "session-end:37"],
                "\(result)")
        #expect(calls.filter { $0.hasPrefix("builder-") } == ["builder-begin:46", "builder-end:46", "builder-begin:37", "builder-end:37"],
                "\(result)")
        #expect(result.lines.contains("errors \(HKError.Code.errorInvalidArgument.rawValue)"), "\(result)")
    }
}
