import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire
import Testing

/// What changes workout effort relations, seen through `HKWorkoutEffortRelationshipQuery`'s
/// anchor and through the locked store, against a real healthd, each app a separate confined
/// process speaking the protocol (`WorkoutEffortEndToEndTests` has the world and helpers).
///
/// Apple's rules, HKWorkoutEffortRelationshipQuery.h (iOS 18 SDK): the query "will retrieve
/// HKWorkoutEffortRelationship matching the given predicate that are newer than the given
/// anchor", and its callbacks "will contain new relationships as well as any changes to previous
/// relationships along with a new anchor"; `HKWorkoutEffortRelationshipQueryDescriptor.anchor`
/// "Restricts query results to relationships and deleted objects that were introduced after
/// `anchor`" (developer.apple.com/documentation/healthkit/hkworkouteffortrelationshipquerydescriptor/anchor).
@Suite(.timeLimit(.minutes(10))) struct WorkoutEffortChangesEndToEndTests {
    typealias World = WorkoutEffortEndToEndTests

    static func answer(_ app: SandboxedProtocolApp, after anchor: [UInt8]) async throws -> WorkoutEffortRelations {
        try await World.answer(app, WorkoutEffortQuery(predicate: nil, mostRelevant: false, anchor: anchor))
    }

    @Test func anAnchorAnswersOnlyTheRelationshipsThatChangedSinceEachAsItIsNow() async throws {
        let broker = try BrokerProcess()
        let (watch, rater, workout) = try await World.world(broker)
        let first = try #require(try await rater.save([World.score(7)]).first)
        #expect(try await World.relate(rater, first, workout) == nil)
        let start = try await World.answer(rater, WorkoutEffortQuery(predicate: nil, mostRelevant: false))
        #expect(start.relations == [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [first])])

        // Nothing changed: nothing newer than the anchor.
        let unchanged = try await Self.answer(rater, after: start.anchor)
        #expect(unchanged.relations.isEmpty)
        #expect(unchanged.anchor.count == AnchorSealer.anchorLength && unchanged.anchor != start.anchor)

        // A sample related: the relationship, with every sample it now has.
        let second = try #require(try await rater.save([World.score(9, minute: 75)]).first)
        #expect(try await World.relate(rater, second, workout) == nil)
        let added = try await Self.answer(rater, after: start.anchor)
        #expect(added.relations == [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [first, second])])
        #expect(try await Self.answer(rater, after: added.anchor).relations.isEmpty)

        // Unrelated: the relationship as it is left.
        #expect(try await World.unrelate(rater, first, workout) == nil)
        let unrelated = try await Self.answer(rater, after: added.anchor)
        #expect(unrelated.relations == [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [second])])

        // The last sample deleted: the relationship with no sample left.
        #expect(try await rater.failure(.deleteObjects, ObjectDeletion([ObjectReference(typeIdentifier: World.effort, uuid: second)])) == nil)
        let emptied = try await Self.answer(rater, after: unrelated.anchor)
        #expect(emptied.relations == [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [])])

        // The workout deleted: its relationship goes with it, answered as it is left — with no
        // sample — after any anchor from before the deletion, and not again after that.
        let third = try #require(try await rater.save([World.score(5, minute: 80)]).first)
        #expect(try await World.relate(rater, third, workout) == nil)
        #expect(try await watch.failure(.deleteObjects, ObjectDeletion([ObjectReference(typeIdentifier: World.workout, uuid: workout)])) == nil)
        let departed = [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [])]
        let gone = try await Self.answer(rater, after: emptied.anchor)
        #expect(gone.relations == departed)
        #expect(try await Self.answer(rater, after: start.anchor).relations == departed)
        #expect(try await Self.answer(rater, after: gone.anchor).relations.isEmpty)
        #expect(try await World.relations(rater).isEmpty)
    }

    /// A deleted workout takes its relationships along (ON DELETE CASCADE); each is reported gone
    /// to a reader continuing from an anchor — the way an unrelated one is — exactly when that
    /// reader could see it: the workout under its workout scope and a sample under its type's.
    /// Session 13 left this open: the relation went without a record, so no anchor learned of it.
    @Test func aDeletedWorkoutsRelationshipsAreReportedGoneToTheReadersWhoCouldSeeThem() async throws {
        let broker = try BrokerProcess()
        let (watch, rater, workout) = try await World.world(broker)
        // Reads workouts and shares scores, but reads no one's scores: the rater's relation is hidden from it.
        let peer = try await SandboxedProtocolApp.install("org.test.effort.peer", on: broker,
                                                          grants: [("read", World.workout), ("share", World.effort)])
        // Reads workouts only: no relation's sample is visible to it.
        let blind = try await SandboxedProtocolApp.install("org.test.effort.blind-reader", on: broker, grants: [("read", World.workout)])
        let score = try #require(try await rater.save([World.score(6)]).first)
        #expect(try await World.relate(rater, score, workout) == nil)
        let raterStart = try await World.answer(rater, WorkoutEffortQuery(predicate: nil, mostRelevant: false))
        let peerStart = try await World.answer(peer, WorkoutEffortQuery(predicate: nil, mostRelevant: false))
        let blindStart = try await World.answer(blind, WorkoutEffortQuery(predicate: nil, mostRelevant: false))
        #expect(peerStart.relations.isEmpty && blindStart.relations.isEmpty)
        // The peer relates a score of its own after its anchor; then the workout is deleted.
        let own = try #require(try await peer.save([World.score(2, minute: 72)]).first)
        #expect(try await World.relate(peer, own, workout) == nil)
        #expect(try await watch.failure(.deleteObjects, ObjectDeletion([ObjectReference(typeIdentifier: World.workout, uuid: workout)])) == nil)
        let departed = [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [])]
        let raterAfter = try await Self.answer(rater, after: raterStart.anchor)
        #expect(raterAfter.relations == departed)
        #expect(try await Self.answer(rater, after: raterAfter.anchor).relations.isEmpty)
        // The peer saw the relation through its own score, so it is told it went.
        #expect(try await Self.answer(peer, after: peerStart.anchor).relations == departed)
        // The reader of workouts alone saw no relation: it learns of none going (its anchor's
        // answer is that of a store where the relations were never made).
        let blindAfter = try await Self.answer(blind, after: blindStart.anchor)
        #expect(blindAfter.relations.isEmpty && blindAfter.anchor.count == blindStart.anchor.count)
    }

    /// DESIGN §7.3 for anchors: a reader that cannot read another app's effort samples gets,
    /// after its anchor, exactly what it gets when that app changes nothing — relating,
    /// unrelating and deleting a hidden sample of a workout the reader sees select nothing.
    @Test func changesToSamplesTheReaderCannotReadAnswerNothingAfterItsAnchor() async throws {
        let broker = try BrokerProcess()
        let (_, rater, workout) = try await World.world(broker)
        // The peer reads workouts and shares effort scores, but reads no one's effort scores.
        let peer = try await SandboxedProtocolApp.install("org.test.effort.peer", on: broker,
                                                          grants: [("read", World.workout), ("share", World.effort)])
        let own = try #require(try await peer.save([World.score(3)]).first)
        #expect(try await World.relate(peer, own, workout) == nil)
        let start = try await World.answer(peer, WorkoutEffortQuery(predicate: nil, mostRelevant: false))
        #expect(start.relations == [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [own])])

        let hidden = try #require(try await rater.save([World.score(8)]).first)
        #expect(try await World.relate(rater, hidden, workout) == nil)
        #expect(try await Self.answer(peer, after: start.anchor).relations.isEmpty)
        #expect(try await World.unrelate(rater, hidden, workout) == nil)
        #expect(try await World.relate(rater, hidden, workout) == nil)
        #expect(try await rater.failure(.deleteObjects, ObjectDeletion([ObjectReference(typeIdentifier: World.effort, uuid: hidden)])) == nil)
        let after = try await Self.answer(peer, after: start.anchor)
        #expect(after.relations.isEmpty)
        #expect(after.anchor.count == start.anchor.count)
        // The positive control: the rater, who reads every effort score, saw each change.
        #expect(try await World.relations(rater) == [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [own])])
        // The peer's own change is answered.
        #expect(try await World.unrelate(peer, own, workout) == nil)
        #expect(try await Self.answer(peer, after: start.anchor).relations
                == [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [])])
    }

    /// An anchor is sealed for one app and one kind of query: another app's, an anchored object
    /// query's and an altered one are refused alike.
    @Test func anAnchorFromAnotherAppOrAnotherQueryIsRefused() async throws {
        let broker = try BrokerProcess()
        let (watch, rater, _) = try await World.world(broker)
        let mine = try await World.answer(rater, WorkoutEffortQuery(predicate: nil, mostRelevant: false)).anchor
        let anchored = try await rater.stream(.queryAnchored, AnchoredQuerySpec(descriptors: [
            TypePredicateSpec(typeIdentifier: World.workout), TypePredicateSpec(typeIdentifier: World.effort),
            TypePredicateSpec(typeIdentifier: World.estimated),
        ])).get().compactMap { try? AnchoredQueryBatch(wire: $0) }.last { !$0.anchor.isEmpty }?.anchor
        var altered = mine
        altered[altered.count - 1] ^= 1
        var refusals: [SandboxedProtocolApp.Failure] = []
        for (app, anchor) in [(watch, mine), (rater, try #require(anchored)), (rater, altered), (rater, Array(mine.dropLast()))] {
            guard case let .failure(failure) = try await app.stream(.queryWorkoutEffortRelationships,
                                                                   WorkoutEffortQuery(predicate: nil, mostRelevant: false, anchor: anchor)) else {
                Issue.record("an anchor not issued to this app for this query was accepted")
                continue
            }
            refusals.append(failure)
        }
        #expect(refusals.count == 4 && refusals.allSatisfy { $0.healthKitCode == .errorInvalidArgument && $0.message == refusals[0].message },
                "\(refusals)")
    }

    /// While the store is locked, relating and unrelating are journaled like every other write
    /// (SECURITY.md "Locked store") and merged at unlock, where the workout's visibility is
    /// decided: a workout the app cannot read, and one that does not exist, were answered alike
    /// while locked and leave no relation.
    @Test func whileLockedRelatingIsJournaledAndMergedAtUnlockUnderTheVisibilityRule() async throws {
        let broker = try BrokerProcess()
        let (_, rater, workout) = try await World.world(broker)
        let kept = try #require(try await rater.save([World.score(7)]).first)
        let dropped = try #require(try await rater.save([World.score(4, minute: 71)]).first)
        #expect(try await World.relate(rater, dropped, workout) == nil)
        // An app that rates but may not read workouts: the watch's workout is hidden from it.
        let blind = try await SandboxedProtocolApp.install("org.test.effort.blind", on: broker,
                                                           grants: [("share", World.effort), ("read", World.effort)])
        let blindScore = try #require(try await blind.save([World.score(2)]).first)
        #expect(try await broker.healthctl(["lock"]).status == 0)
        #expect(try await World.relate(rater, kept, workout) == nil)
        #expect(try await World.unrelate(rater, dropped, workout) == nil)
        let hidden = try await World.relate(blind, blindScore, workout)
        let missing = try await World.relate(blind, blindScore, UUID())
        #expect(hidden == nil && missing == nil, "\(String(describing: hidden)) \(String(describing: missing))")
        // Reading still needs the unlocked store.
        guard case let .failure(read) = try await rater.stream(.queryWorkoutEffortRelationships,
                                                               WorkoutEffortQuery(predicate: nil, mostRelevant: false)) else {
            Issue.record("the relationship query answered while locked")
            return
        }
        #expect(read.healthKitCode == .errorDatabaseInaccessible)
        #expect(try await broker.healthctl(["unlock"]).status == 0)
        let merged = try await World.relations(rater)
        #expect(merged == [WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: [kept])], "\(merged)")
        // The blind app's score was related to nothing: the rater reads every effort score.
        #expect(try await rater.query(SampleQuerySpec(typeIdentifier: World.effort,
                                                      predicate: .workoutEffort(workout: workout, activity: nil))).map(\.uuid) == [kept])
    }

    /// The merge decides with the grants as of the call: a share permission revoked before the
    /// lock refuses the relation at once, as an unlocked call would be refused.
    @Test func whileLockedAnAppThatMayShareNoEffortTypeIsRefusedAtOnce() async throws {
        let broker = try BrokerProcess()
        let (_, rater, workout) = try await World.world(broker)
        let score = try #require(try await rater.save([World.score(7)]).first)
        for type in [World.effort, World.estimated] { try await broker.set("org.test.effort.rater", "share", type, allowed: false) }
        #expect(try await broker.healthctl(["lock"]).status == 0)
        let refused = try await World.relate(rater, score, workout)
        #expect(refused?.healthKitCode == .errorAuthorizationDenied, "\(String(describing: refused))")
        #expect(try await broker.healthctl(["unlock"]).status == 0)
        #expect(try await World.relations(rater).isEmpty)
    }

    /// The user's window onto relations: `healthctl samples workout` lists each workout's related
    /// effort scores, every app's, in an EFFORT column.
    @Test func healthctlListsTheEffortScoresRelatedToEachWorkout() async throws {
        let broker = try BrokerProcess()
        let (_, rater, workout) = try await World.world(broker)
        let score = try #require(try await rater.save([World.score(7)]).first)
        let estimate = try #require(try await rater.save([World.score(5, type: World.estimated, minute: 72)]).first)
        let before = try await broker.healthctl(["samples", "workout"])
        #expect(before.status == 0 && before.stdout.contains("EFFORT") && !before.stdout.contains("estimated"), "\(before)")
        for sample in [score, estimate] { #expect(try await World.relate(rater, sample, workout) == nil) }
        let listed = try await broker.healthctl(["samples", "workout"])
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.stdout.contains("7, estimated 5"), "\(listed.stdout)")
    }
}
