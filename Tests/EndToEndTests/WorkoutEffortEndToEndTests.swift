import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire
import Testing

/// Workout effort relations (iOS 18: `relateWorkoutEffortSample`, `HKWorkoutEffortRelationshipQuery`)
/// through a real healthd, its encrypted store and its app socket, each app a separate confined
/// process speaking the protocol (SandboxedProtocolApp: it can name objects it cannot see). Apple's documented rules
/// cited per test: HKWorkoutEffortRelationshipQuery.h and HKHealthStore.h (iOS 18 SDK headers).
@Suite(.timeLimit(.minutes(10))) struct WorkoutEffortEndToEndTests {
    static let workout = HKWorkoutTypeIdentifier
    static let effort = HKQuantityTypeIdentifier.workoutEffortScore.rawValue
    static let estimated = HKQuantityTypeIdentifier.estimatedWorkoutEffortScore.rawValue

    static func score(_ value: Double, type: String = effort, minute: Int = 70) -> SampleRecord {
        let date = RawRecords.start.addingTimeInterval(Double(minute) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: date, endDate: date,
                            value: .quantity(value, unit: "appleEffortScore"))
    }

    static func relations(_ app: SandboxedProtocolApp, _ predicate: SamplePredicate? = nil, mostRelevant: Bool = false) async throws -> [WorkoutEffortRelation] {
        try await answer(app, WorkoutEffortQuery(predicate: predicate, mostRelevant: mostRelevant)).relations
    }

    /// The one answer of a query that is not long-running (the descriptor's `result(for:)`).
    static func answer(_ app: SandboxedProtocolApp, _ query: WorkoutEffortQuery) async throws -> WorkoutEffortRelations {
        let messages = try await app.stream(.queryWorkoutEffortRelationships, query).get()
        #expect(messages.count == 1, "one answer, not \(messages.count)")
        return try WorkoutEffortRelations(wire: try #require(messages.first))
    }

    /// The answer's bytes with its anchor (sealed with a fresh nonce each time) left out.
    static func rawRelations(_ app: SandboxedProtocolApp, _ predicate: SamplePredicate? = nil, mostRelevant: Bool = false) async throws -> [UInt8] {
        var answer = try await answer(app, WorkoutEffortQuery(predicate: predicate, mostRelevant: mostRelevant))
        #expect(answer.anchor.count == AnchorSealer.anchorLength)
        answer.anchor = []
        return answer.wireBytes()
    }

    static func relate(_ app: SandboxedProtocolApp, _ sample: UUID, _ workout: UUID, activity: UUID? = nil) async throws -> SandboxedProtocolApp.Failure? {
        try await app.failure(.relateWorkoutEffort, WorkoutEffortRelationChange(sampleUUID: sample, workoutUUID: workout, activityUUID: activity))
    }

    static func unrelate(_ app: SandboxedProtocolApp, _ sample: UUID, _ workout: UUID) async throws -> SandboxedProtocolApp.Failure? {
        try await app.failure(.unrelateWorkoutEffort, WorkoutEffortRelationChange(sampleUUID: sample, workoutUUID: workout, activityUUID: nil))
    }

    /// A watch app that recorded a workout, and a rating app that reads workouts and writes and
    /// reads effort scores.
    static func world(_ broker: BrokerProcess, raterGrants: [(String, String)]? = nil) async throws -> (watch: SandboxedProtocolApp, rater: SandboxedProtocolApp, workout: UUID) {
        let watch = try await SandboxedProtocolApp.install("org.test.effort.watch", on: broker, grants: [("share", workout), ("read", workout)])
        let rater = try await SandboxedProtocolApp.install("org.test.effort.rater", on: broker, grants: raterGrants ?? [
            ("read", workout), ("share", effort), ("read", effort), ("share", estimated), ("read", estimated),
        ])
        let saved = try await watch.save([RawRecords.workout()])
        return (watch, rater, try #require(saved.first))
    }

    @Test func anAppRelatesItsEffortScoreToAnotherAppsWorkoutAndFindsItThroughTheQueryAndThePredicate() async throws {
        let broker = try BrokerProcess()
        let (watch, rater, workout) = try await Self.world(broker)
        let score = try #require(try await rater.save([Self.score(7)]).first)
        #expect(try await Self.relate(rater, score, workout) == nil)
        let expected = [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [score])]
        #expect(try await Self.relations(rater) == expected)
        // predicateForWorkoutEffortSamplesRelated(workout:activity:) on a sample query.
        let related = try await rater.query(SampleQuerySpec(typeIdentifier: Self.effort,
                                                            predicate: .workoutEffort(workout: workout, activity: nil)))
        #expect(related.map(\.uuid) == [score])
        // The same relation twice is one relation; a predicate on the workouts selects them.
        #expect(try await Self.relate(rater, score, workout) == nil)
        #expect(try await Self.relations(rater, .uuids([workout])) == expected)
        #expect(try await Self.relations(rater, .uuids([UUID()])).isEmpty)
        // Unrelating removes it; unrelating what is not related succeeds and changes nothing.
        #expect(try await Self.unrelate(rater, score, workout) == nil)
        #expect(try await Self.relations(rater).isEmpty)
        #expect(try await Self.unrelate(rater, score, workout) == nil)
        #expect(try await rater.query(SampleQuerySpec(typeIdentifier: Self.effort,
                                                      predicate: .workoutEffort(workout: workout, activity: nil))).isEmpty)
    }

    @Test func relatingToAWorkoutTheAppCannotReadFailsExactlyAsToOneThatDoesNotExist() async throws {
        let broker = try BrokerProcess()
        // The rater may write effort scores but not read workouts.
        let (watch, rater, workout) = try await Self.world(broker, raterGrants: [("share", Self.effort), ("read", Self.effort)])
        let score = try #require(try await rater.save([Self.score(5)]).first)
        let hidden = try await Self.relate(rater, score, workout)
        let missing = try await Self.relate(rater, score, UUID())
        #expect(hidden?.healthKitCode == .errorInvalidArgument, "\(String(describing: hidden))")
        #expect(hidden?.code == missing?.code && hidden?.message == missing?.message, "\(String(describing: hidden)) vs \(String(describing: missing))")
        #expect(try await Self.relations(rater).isEmpty)
        // Unrelating names the hidden workout the same way.
        let hiddenUnrelate = try await Self.unrelate(rater, score, workout)
        let missingUnrelate = try await Self.unrelate(rater, score, UUID())
        #expect(hiddenUnrelate?.message == missingUnrelate?.message && hiddenUnrelate != nil)
    }

    @Test func onlyTheAppsOwnEffortSamplesCanBeRelated() async throws {
        let broker = try BrokerProcess()
        let (watch, rater, workout) = try await Self.world(broker)
        let other = try await SandboxedProtocolApp.install("org.test.effort.other", on: broker, grants: [("share", Self.effort), ("share", HKQuantityTypeIdentifier.heartRate.rawValue)])
        let othersScore = try #require(try await other.save([Self.score(3)]).first)
        let notOwned = try await Self.relate(rater, othersScore, workout)
        let missing = try await Self.relate(rater, UUID(), workout)
        #expect(notOwned?.healthKitCode == .errorInvalidArgument)
        #expect(notOwned?.message == missing?.message, "\(String(describing: notOwned)) vs \(String(describing: missing))")
        // A sample of another type: HealthKit relates effort scores only.
        let heartRate = try #require(try await other.save([RawRecords.heartRate(120)]).first)
        let wrongType = try await Self.relate(other, heartRate, workout)
        #expect(wrongType?.healthKitCode == .errorInvalidArgument)
        #expect(wrongType?.message.contains("workoutEffortScore") == true, "\(String(describing: wrongType))")
        // An activity that is not one of the workout's.
        let score = try #require(try await rater.save([Self.score(6)]).first)
        let stranger = try await Self.relate(rater, score, workout, activity: UUID())
        #expect(stranger?.healthKitCode == .errorInvalidArgument)
        #expect(stranger?.message.contains("activities") == true, "\(String(describing: stranger))")
        // Without share permission for the sample's type (revoked after it was saved).
        try await broker.set("org.test.effort.rater", "share", Self.effort, allowed: false)
        let denied = try await Self.relate(rater, score, workout)
        #expect(denied?.healthKitCode == .errorAuthorizationDenied, "\(String(describing: denied))")
        #expect(try await Self.relations(rater).isEmpty)
    }

    /// DESIGN §7.3: a relation is visible only as far as the reader can read both sides. A
    /// reader missing one grant gets, byte for byte, the answer it got before the relation was
    /// made — one grant varied at a time.
    @Test func aRelationLooksAbsentToAReaderThatCannotReadEitherSide() async throws {
        let broker = try BrokerProcess()
        let (watch, rater, workout) = try await Self.world(broker)
        let both = try await SandboxedProtocolApp.install("org.test.effort.both", on: broker, grants: [("read", Self.workout), ("read", Self.effort)])
        let noWorkout = try await SandboxedProtocolApp.install("org.test.effort.noworkout", on: broker, grants: [("read", Self.effort)])
        let noEffort = try await SandboxedProtocolApp.install("org.test.effort.noeffort", on: broker, grants: [("read", Self.workout)])
        let readers = [both, noWorkout, noEffort]
        let predicate = SamplePredicate.workoutEffort(workout: workout, activity: nil)
        var before: [[UInt8]] = []
        var beforeSamples: [[SampleRecord]] = []
        for reader in readers {
            before.append(try await Self.rawRelations(reader))
            beforeSamples.append(try await reader.query(SampleQuerySpec(typeIdentifier: Self.effort, predicate: predicate)))
        }
        let score = try #require(try await rater.save([Self.score(8)]).first)
        #expect(try await Self.relate(rater, score, workout) == nil)

        #expect(try await Self.relations(both) == [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [score])])
        #expect(try await both.query(SampleQuerySpec(typeIdentifier: Self.effort, predicate: predicate)).map(\.uuid) == [score])
        for (index, reader) in readers.enumerated().dropFirst() {
            #expect(try await Self.rawRelations(reader) == before[index], "reader \(index)")
            #expect(try await reader.query(SampleQuerySpec(typeIdentifier: Self.effort, predicate: predicate)) == beforeSamples[index],
                    "reader \(index)")
        }
        // The estimated score, of a type `both` cannot read, adds nothing it can see.
        let estimate = try #require(try await rater.save([Self.score(4, type: Self.estimated)]).first)
        #expect(try await Self.relate(rater, estimate, workout) == nil)
        #expect(try await Self.relations(both) == [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [score])])
        #expect(try await Self.relations(rater).first?.sampleUUIDs.count == 2)
    }

    /// HKWorkoutEffortRelationshipQueryOptions.mostRelevant: "The most relevant sample will be
    /// returned" — one per relationship; here the user's score over the estimate.
    @Test func mostRelevantReturnsOneSamplePerRelationship() async throws {
        let broker = try BrokerProcess()
        let (watch, rater, workout) = try await Self.world(broker)
        let estimate = try #require(try await rater.save([Self.score(4, type: Self.estimated, minute: 80)]).first)
        let score = try #require(try await rater.save([Self.score(6, minute: 61)]).first)
        for sample in [estimate, score] { #expect(try await Self.relate(rater, sample, workout) == nil) }
        #expect(try await Self.relations(rater).first?.sampleUUIDs == [score, estimate])
        #expect(try await Self.relations(rater, mostRelevant: true)
                == [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [score])])
    }

    @Test func deletingTheSampleOrTheWorkoutRemovesTheRelation() async throws {
        let broker = try BrokerProcess()
        let (watch, rater, workout) = try await Self.world(broker)
        let first = try #require(try await rater.save([Self.score(7)]).first)
        let second = try #require(try await rater.save([Self.score(9)]).first)
        for sample in [first, second] { #expect(try await Self.relate(rater, sample, workout) == nil) }
        #expect(try await rater.failure(.deleteObjects, ObjectDeletion([ObjectReference(typeIdentifier: Self.effort, uuid: first)])) == nil)
        #expect(try await Self.relations(rater).first?.sampleUUIDs == [second])
        #expect(try await watch.failure(.deleteObjects, ObjectDeletion([ObjectReference(typeIdentifier: Self.workout, uuid: workout)])) == nil)
        #expect(try await Self.relations(rater).isEmpty)
        // The sample itself stays; only the relation went with the workout.
        #expect(try await rater.query(SampleQuerySpec(typeIdentifier: Self.effort)).map(\.uuid) == [second])
    }
}
