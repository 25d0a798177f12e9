import Foundation
import HealthModel
import Testing
import TestSupport

/// API rows that were present but untested (issue 15), written as Apple documents them
/// (Tests/EndToEndClient/RowSnippets.swift) and run as sandboxed apps against a real healthd.
/// Each test cites the page whose rule it checks.
extension AppleSnippetTests {
    /// developer.apple.com/documentation/healthkit/hkworkoutsessiondelegate/workoutsession(_:didgenerate:)
    /// and …/hkliveworkoutbuilder/shouldcollectworkoutevents: pausing and resuming a running
    /// session generates a pause and a resume event, which the delegate hears in order; the live
    /// builder collects them into the workout by default (true).
    @Test func aSessionsGeneratedEventsReachItsDelegateAndTheBuilder() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.row-session-events")
        try await broker.set(app, "share", HKWorkoutTypeIdentifier, allowed: true)
        let result = try await broker.runApp(app, ["row-snippet", "session-events"])
        #expect(result.lines.contains("default true"), "\(result)")
        #expect(result.lines.contains("generated pause,resume true"), "\(result)")
        #expect(result.lines.contains("builder pause,resume"), "\(result)")
        #expect(result.okValue == "pause,resume", "\(result)")
    }

    /// The same session with `shouldCollectWorkoutEvents = false` (one dimension changed): the
    /// delegate still hears the events — the session generates them — but the builder keeps none
    /// and the saved workout has none.
    @Test func aBuilderToldNotToCollectEventsKeepsNone() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.row-session-no-events")
        try await broker.set(app, "share", HKWorkoutTypeIdentifier, allowed: true)
        let result = try await broker.runApp(app, ["row-snippet", "session-events", "false"])
        #expect(result.lines.contains("generated pause,resume true"), "\(result)")
        #expect(result.lines.contains("builder -"), "\(result)")
        #expect(result.okValue == "-" || result.okValue == "nil", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkworkoutbuilder/updateactivity(uuid:adding:)
    /// and its completion form: the metadata is added to the activity's, a key given again takes
    /// the new value, and the saved workout's activity keeps the result. An activity the builder
    /// does not have is not updated: the call fails.
    @Test func updateActivityAddsMetadataInBothForms() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.row-update-activity")
        try await broker.set(app, "share", HKWorkoutTypeIdentifier, allowed: true)
        let result = try await broker.runApp(app, ["row-snippet", "update-activity"])
        let merged = "Coach=Ana,Drill=kick,Lane=4,Set=main"
        #expect(result.okValue == "\(merged) true true", "\(result)")
        #expect(result.lines.contains("stored \(merged)"), "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkquery/predicateforactivitysummary(with:) in
    /// Apple's HKActivitySummaryQuery snippet: the summary of exactly the day the components name,
    /// in their calendar's time zone — ActivitySummaryEndToEndTests' Berlin days, where the 28th
    /// holds 30 kcal, the 29th (23 hours long) 115 kcal, the 30th nothing.
    @Test func anActivitySummaryDayPredicateSelectsThatDayOnly() async throws {
        let broker = try BrokerProcess()
        let days = ActivitySummaryEndToEndTests()
        try await days.userData(broker)
        let reader = try await broker.installClient("org.test.row-summary-day")
        try await broker.set(reader, "read", days.summaryType, allowed: true)
        for (noon, expected) in [(days.m - 39_600, ["summary 2026-03-28 30.0", "ok 1"]),
                                 (days.m + 39_600, ["summary 2026-03-29 115.0", "ok 1"]),
                                 (days.m + 122_400, ["ok 0"])] {
            let result = try await broker.runApp(reader, ["row-snippet", "activity-summary-day", "\(noon)", "Europe/Berlin"])
            #expect(result.lines == expected, "\(result)")
        }
    }

    /// developer.apple.com/documentation/healthkit/hkquantityseriessamplequery/init(sample:quantityhandler:):
    /// the quantities of the one sample, in order, each with its start date, the last with `done`;
    /// another sample of the type, overlapping in time, is not read.
    @Test func aSeriesQueryForOneSampleReadsThatSamplesQuantities() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.row-series-sample")
        try await broker.set(app, "share", steps, allowed: true)
        try await broker.set(app, "read", steps, allowed: true)
        let result = try await broker.runApp(app, ["row-snippet", "series-sample-quantities"])
        #expect(result.okValue == "10.0@0.0,20.0@60.0,30.0@120.0!", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkquery/predicateforelectrocardiograms(classification:)
    /// and …(symptomsstatus:), end to end: three imported ECGs (apps cannot save them) — sinus
    /// rhythm with symptoms not set, sinus rhythm with none, atrial fibrillation with symptoms
    /// present — each predicate selects exactly its own; combined, the intersection.
    @Test func electrocardiogramPredicatesSelectByClassificationAndSymptoms() async throws {
        let broker = try BrokerProcess()
        let folder = try SeriesEndToEndTests.writeExport(in: broker)
        let first = SeriesEndToEndTests.ecgCSV()
        let more = [("ecg_2023-11-14_1.csv", "21:10:00", "Sinus Rhythm", "None"),
                    ("ecg_2023-11-14_2.csv", "22:10:00", "Atrial Fibrillation", "Chest tightness or pain")]
        for (name, time, classification, symptoms) in more {
            try first.replacingOccurrences(of: "20:10:00 -0800", with: "\(time) -0800")
                .replacingOccurrences(of: "Classification,Sinus Rhythm", with: "Classification,\(classification)")
                .replacingOccurrences(of: "Symptoms,\n", with: "Symptoms,\(symptoms)\n")
                .write(toFile: folder + "/electrocardiograms/" + name, atomically: true, encoding: .utf8)
        }
        let imported = try await broker.healthctl(["import", folder, "--characteristics", "no"])
        #expect(imported.status == 0 && imported.stdout.contains(", 0 refused"), "\(imported)")
        let app = try await broker.installClient("org.test.row-ecg-predicates")
        try await broker.set(app, "read", HKElectrocardiogramTypeIdentifier, allowed: true)
        let result = try await broker.runApp(app, ["row-snippet", "ecg-predicates"])
        // sinus, AFib, low heart rate; symptoms not set, none, present; sinus ∧ none; all;
        // sinus again through HKSamplePredicate.electrocardiogram(_:) in a sample query descriptor.
        #expect(result.okValue == "2 1 0 1 1 1 1 3 2", "\(result)")
    }
}
