import Foundation
import HealthModel
import Testing
import TestSupport

/// Workout effort (iOS 18) written as Apple documents it (Tests/EndToEndClient/WorkoutEffortSnippets.swift),
/// run as a sandboxed app against a real healthd.
extension AppleSnippetTests {
    /// developer.apple.com/documentation/healthkit/hkhealthstore/relateworkouteffortsample(_:with:activity:completion:)
    /// ("Relates a workout effort sample with a workout", HKHealthStore.h), the unrelate
    /// counterpart, HKWorkoutEffortRelationshipQuery ("retrieve HKWorkoutEffortRelationship
    /// matching the given predicate"; `samples`: "The samples related to the workout but not any
    /// sub-activities"), predicateForWorkoutEffortSamplesRelated(workout:activity:) and the
    /// descriptor with `.mostRelevant` ("The most relevant sample will be returned").
    @Test func workoutEffortIsRelatedQueriedAndUnrelatedAsAppleDocumentsIt() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.row-workout-effort")
        let effort = HKQuantityTypeIdentifier.workoutEffortScore.rawValue
        let estimated = HKQuantityTypeIdentifier.estimatedWorkoutEffortScore.rawValue
        for type in [HKWorkoutTypeIdentifier, effort, estimated, HKQuantityTypeIdentifier.heartRate.rawValue] {
            try await broker.set(app, "share", type, allowed: true)
        }
        for type in [HKWorkoutTypeIdentifier, effort, estimated] { try await broker.set(app, "read", type, allowed: true) }
        let result = try await broker.runApp(app, ["row-snippet", "workout-effort"])
        #expect(result.okValue == "related:true,true relationships:workout=7,5;activity=9 predicate:1 activity:1 mostRelevant:user"
                + " unrelated:true,0 wrongType:invalidArgument stranger:invalidArgument", "\(result)")
    }
}

extension AppleSnippetTests {
    /// HKWorkoutEffortRelationshipQuery.h: "This is a long running query … The first call to
    /// resultsHandler will contain the inital results which may be empty and future callbacks
    /// will contain new relationships as well as any changes to previous relationships along with
    /// a new anchor"; developer.apple.com/documentation/healthkit/hkworkouteffortrelationshipquerydescriptor/result(for:):
    /// "If the anchor property is non-nil, the result will be limited to changes made since that
    /// anchor was previously returned"; developer.apple.com/documentation/healthkit/hkworkouteffortrelationship:
    /// NSSecureCoding (`init(coder:)`). Run by a sandboxed app against a real healthd
    /// (Tests/EndToEndClient/WorkoutEffortChangesSnippets.swift).
    @Test func workoutEffortRelationshipsAreAnsweredFromAnAnchorAndWhileTheyChange() async throws {
        let broker = try BrokerProcess()
        let app = try await Self.effortReader("org.test.row-workout-effort-changes", on: broker)
        let result = try await broker.runApp(app, ["row-snippet", "workout-effort-changes"])
        #expect(result.okValue == "initial:workout=7 live:0|activity=9|workout= since:workout=;activity=9 deleted:activity="
                + " archive:true,true foreign:invalidArgument", "\(result)")
    }
}

extension AppleSnippetTests {
    /// developer.apple.com/documentation/healthkit/hkasyncsequencequery: HKWorkoutEffortRelationshipQueryDescriptor
    /// is among its "Conforming Types", and `results(for:)` "Initiates a query that returns its
    /// results using an asynchronous sequence" (`HKWorkoutEffortRelationshipQueryDescriptor.Results`,
    /// an AsyncSequence of `Result`); its elements follow HKWorkoutEffortRelationshipQuery.h's
    /// long-running rule: "The first call to resultsHandler will contain the inital results …
    /// future callbacks will contain new relationships as well as any changes to previous
    /// relationships along with a new anchor". Run by a sandboxed app against a real healthd
    /// (Tests/EndToEndClient/WorkoutEffortChangesSnippets.swift, `workoutEffortResultsSnippet`).
    @Test func workoutEffortRelationshipsStreamFromTheDescriptorsResultsSequence() async throws {
        let broker = try BrokerProcess()
        let app = try await Self.effortReader("org.test.row-workout-effort-results", on: broker)
        let result = try await broker.runApp(app, ["row-snippet", "workout-effort-results"])
        #expect(result.okValue == "elements:workout=6|activity=8|workout= resumed:0 foreign:invalidArgument", "\(result)")
    }
}

extension AppleSnippetTests {
    /// An app that may save and read workouts and effort scores.
    static func effortReader(_ appID: String, on broker: BrokerProcess) async throws -> String {
        let app = try await broker.installClient(appID)
        for type in [HKWorkoutTypeIdentifier, HKQuantityTypeIdentifier.workoutEffortScore.rawValue] {
            try await broker.set(app, "share", type, allowed: true)
            try await broker.set(app, "read", type, allowed: true)
        }
        return app
    }
}
