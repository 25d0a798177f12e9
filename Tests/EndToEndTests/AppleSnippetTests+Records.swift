import Foundation
import HealthModel
import Testing
import TestSupport

/// Issue 15's query APIs (engineer "records"), written as Apple documents them.
extension AppleSnippetTests {
    var energy: String { HKQuantityTypeIdentifier.activeEnergyBurned.rawValue }
    var summaryType: String { HKObjectType.activitySummaryType().identifier }

    /// developer.apple.com/documentation/healthkit/hkquery/predicateforobjectswithnocorrelation():
    /// "matches all objects that are not associated with any HealthKit correlations". Another
    /// app saved one blood-pressure reading (a correlation) and one systolic sample alone. A
    /// reader of both pressure types sees the reading, so only the lone sample matches; a reader
    /// of systolic alone cannot see the correlation (DESIGN.md §7.3: it must look absent), so
    /// both systolic samples match, as if the reading had been saved as two loose samples.
    @Test func noCorrelationMatchesTheLoneReadingAndTreatsAHiddenCorrelationAsAbsent() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.snippet-pressure-writer")
        let reader = try await broker.installClient("org.test.snippet-pressure-reader")
        let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
        let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
        for type in [systolic, diastolic] { try await broker.set(writer, "share", type, allowed: true) }
        #expect(try await broker.runApp(writer, ["save-blood-pressure", "120", "80", "1700000000"]).okValue != nil)
        #expect(try await broker.runApp(writer, ["save", systolic, "125", "mmHg", "1700000600", "1700000600"]).okValue != nil)

        // The writer sees its own correlation.
        let own = try await broker.runApp(writer, ["snippet", "uncorrelated-systolic"])
        #expect(own.okValue == "2 1", "\(own)")

        try await broker.set(reader, "read", systolic, allowed: true)
        try await broker.set(reader, "read", diastolic, allowed: false)
        let systolicOnly = try await broker.runApp(reader, ["snippet", "uncorrelated-systolic"])
        #expect(systolicOnly.okValue == "2 2", "\(systolicOnly)")

        try await broker.set(reader, "read", diastolic, allowed: true)
        let both = try await broker.runApp(reader, ["snippet", "uncorrelated-systolic"])
        #expect(both.okValue == "2 1", "\(both)")
    }

    /// developer.apple.com/documentation/healthkit/hkactivitysummaryquery/updatehandler: with an
    /// update handler the query keeps running, and new or modified summaries reach the handler.
    /// Another app's save changes the day's energy; the user's new goal changes its goal. Each is
    /// one update holding that day only.
    @Test func anActivitySummaryUpdateHandlerGetsTheChangedDay() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.snippet-rings")
        let other = try await broker.installClient("org.test.snippet-rings-other")
        try await broker.set(reader, "read", summaryType, allowed: true)
        try await broker.set(other, "share", energy, allowed: true)
        #expect(try await broker.runApp(other, ["save", energy, "100", "kcal", "1700049600", "1700053200"]).okValue != nil)

        let live = try LiveApp(reader, ["snippet", "watch-activity-summaries", "2"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("initial 1"), "\(live.lines)")
        #expect(try await broker.runApp(other, ["save", energy, "50", "kcal", "1700056800", "1700060400"]).okValue != nil)
        #expect(try await live.waitForLine("update 1 2023-11-15 energy=150.0 goal=0.0"), "\(live.lines)")
        let goals = try await broker.healthctl(["activity", "goals", "set", "--move", "600kcal", "--from", "2023-11-01"])
        #expect(goals.status == 0, "\(goals)")
        let result = await live.finish()
        #expect(result.lines.filter { $0.hasPrefix("update ") } == ["update 1 2023-11-15 energy=150.0 goal=0.0",
                                                                     "update 2 2023-11-15 energy=150.0 goal=600.0"], "\(result)")
        #expect(result.okValue == "2", "\(result)")
    }

    /// DESIGN.md §7.3 for the update handler: an app without read permission for activity
    /// summaries sees the summaries of its own samples only, at every delivery. Another app's
    /// save produces no update at all; its own save produces one with its own energy and no goal.
    @Test func anActivitySummaryUpdateHandlerOfADeniedReaderSeesOnlyItsOwnChanges() async throws {
        let broker = try BrokerProcess()
        let denied = try await broker.installClient("org.test.snippet-rings-denied")
        let other = try await broker.installClient("org.test.snippet-rings-other")
        try await broker.set(denied, "read", summaryType, allowed: false)
        for app in [denied, other] { try await broker.set(app, "share", energy, allowed: true) }
        let goals = try await broker.healthctl(["activity", "goals", "set", "--move", "600kcal", "--from", "2023-11-01"])
        #expect(goals.status == 0, "\(goals)")

        let live = try LiveApp(denied, ["snippet", "watch-activity-summaries", "1"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("initial 0"), "\(live.lines)")
        #expect(try await broker.runApp(other, ["save", energy, "100", "kcal", "1700049600", "1700053200"]).okValue != nil)
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await broker.runApp(denied, ["save", energy, "20", "kcal", "1700056800", "1700060400"]).okValue != nil)
        let result = await live.finish()
        #expect(result.lines.filter { $0.hasPrefix("update ") } == ["update 1 2023-11-15 energy=20.0 goal=0.0"], "\(result)")
        #expect(result.okValue == "1", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkactivitysummaryquerydescriptor/results(for:):
    /// the first element holds every matching summary, later ones only the changed summaries.
    @Test func activitySummaryResultsStartWithEverySummaryThenTheChangedOnes() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-rings-results")
        try await broker.set(app, "read", summaryType, allowed: true)
        try await broker.set(app, "share", energy, allowed: true)
        for start in [1_700_049_600, 1_700_136_000] {
            #expect(try await broker.runApp(app, ["save", energy, "10", "kcal", "\(start)", "\(start + 600)"]).okValue != nil)
        }
        let live = try LiveApp(app, ["snippet", "activity-summary-results", "2"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("element 1 2"), "\(live.lines)")
        #expect(try await broker.runApp(app, ["save", energy, "5", "kcal", "1700136000", "1700136600"]).okValue != nil)
        let result = await live.finish()
        #expect(result.lines.filter { $0.hasPrefix("element ") } == ["element 1 2", "element 2 1"], "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hksamplequery/init(querydescriptors:limit:sortdescriptors:resultshandler:):
    /// samples of both descriptors' types, newest first across types, cut to the limit; each type
    /// under its own read grant. The app reads steps from every app (two of its own, one of
    /// another's) but not heart rate: its own heart-rate sample is there, the other app's newer
    /// one is not.
    @Test func aSampleQueryOverTwoDescriptorsMergesTheTypesEachUnderItsOwnGrant() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-descriptors")
        let other = try await broker.installClient("org.test.snippet-descriptors-other")
        try await twoAppsWithSteps(broker, app: app)
        let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
        for saver in [app, other] { try await broker.set(saver, "share", heartRate, allowed: true) }
        try await broker.set(app, "read", heartRate, allowed: false)
        #expect(try await broker.runApp(app, ["save", heartRate, "60", "count/min", "1700000900", "1700000900"]).okValue != nil)
        #expect(try await broker.runApp(other, ["save", heartRate, "70", "count/min", "1700001500", "1700001500"]).okValue != nil)
        let result = try await broker.runApp(app, ["snippet", "descriptor-samples"])
        #expect(result.okValue == "4 StepCount HeartRate StepCount", "\(result)")
    }

    /// A day that loses all its data is not reported (HealthKit's handler gets "new or modified
    /// summaries"); when it gets data again it is new, even with the values it had before.
    @Test func anActivitySummaryDayThatComesBackIsReportedAgain() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-rings-again")
        try await broker.set(app, "read", summaryType, allowed: true)
        try await broker.set(app, "share", energy, allowed: true)
        #expect(try await broker.runApp(app, ["save", energy, "30", "kcal", "1700049600", "1700050200"]).okValue != nil)
        let live = try LiveApp(app, ["snippet", "watch-activity-summaries", "1"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("initial 1"), "\(live.lines)")
        let deleted = try await broker.runApp(app, ["delete-matching", energy])
        #expect(deleted.okValue == "1", "\(deleted)")
        // Time for the wake-up of the deletion to be read on its own, before the new save.
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await broker.runApp(app, ["save", energy, "30", "kcal", "1700049600", "1700050200"]).okValue != nil)
        let result = await live.finish()
        #expect(result.lines.filter { $0.hasPrefix("update ") } == ["update 1 2023-11-15 energy=30.0 goal=0.0"], "\(result)")
    }
}
