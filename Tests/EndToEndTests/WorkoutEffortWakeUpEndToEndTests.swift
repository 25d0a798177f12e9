import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire
import Synchronization
import Testing
import TestSupport

/// Who a workout effort relation wakes. A relation changes no object, yet it is a change of the
/// effort sample's type: it wakes that type's observers and the long-running relationship queries
/// whose reader may see it — the workout under its workout scope, the sample under its type's —
/// exactly as saving such a sample would, and nobody else (a wake-up on a hidden relation would
/// tell the reader it exists).
///
/// Apple's rules: an `HKObserverQuery` "updates your app when the HealthKit store saves or deletes
/// a matching sample" (developer.apple.com/documentation/healthkit/hkobserverquery), and
/// `HKWorkoutEffortRelationshipQuery`'s "future callbacks will contain new relationships as well
/// as any changes to previous relationships along with a new anchor" (HKWorkoutEffortRelationshipQuery.h,
/// iOS 18 SDK). Until session 18 a relation made woke no observer: the observer learned of it with
/// the next save of its type.
///
/// The reader is this test process (one direct identity): it reads workout effort scores but no
/// one's workouts and no estimated scores, and has an observer of effort scores and a long-running
/// relationship query open. A rater — a separate sandboxed process — relates a score the reader
/// can read to a workout it cannot, and an estimated score to the reader's own workout: two hidden
/// relations, after which the reader must have got exactly what the twin, where neither was made,
/// gets — nothing. Then it relates a score to the reader's workout: the positive control.
@Suite(.timeLimit(.minutes(10))) struct WorkoutEffortWakeUpEndToEndTests {
    typealias World = WorkoutEffortEndToEndTests
    static let reader = "org.test.effort-wake-reader"

    /// What arrived on the reader's two streams, in order.
    final class Transcript: Sendable {
        let observerUpdates = Mutex<[ObserverDelivery]>([])
        let relationDeliveries = Mutex<[[WorkoutEffortRelation]]>([])

        func counts() -> (observer: Int, relations: Int) {
            (observerUpdates.withLock { $0.count }, relationDeliveries.withLock { $0.count })
        }

        func wait(until done: (Int, Int) -> Bool, seconds: Double) async throws -> Bool {
            let until = Date().addingTimeInterval(seconds)
            while Date() < until {
                let (observer, relations) = counts()
                if done(observer, relations) { return true }
                try await Task.sleep(for: .milliseconds(20))
            }
            let (observer, relations) = counts()
            return done(observer, relations)
        }
    }

    @Test func aRelationWakesTheEffortObserversAndQueriesOfReadersWhoMaySeeItAndNobodyElse() async throws {
        let broker = try BrokerProcess()
        let (watch, rater, hiddenWorkout) = try await World.world(broker)
        _ = watch
        try await broker.install(appID: Self.reader, executable: Products.testProcessExecutable)
        try await broker.allowDirect(Self.reader)
        try await broker.set(Self.reader, "read", World.effort, allowed: true)
        try await broker.set(Self.reader, "share", HKWorkoutTypeIdentifier, allowed: true)
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        let ownWorkout = try #require(try SavedUUIDs(wire: await client.unary(HealthStoreMethod.save.rawValue,
                                                                             SampleList([RawRecords.workout()]).wireBytes())).uuids.first)
        // Every score saved before the reader listens: a save is a change the reader may see.
        let visibleOnHidden = try #require(try await rater.save([World.score(6)]).first)
        let estimatedOnOwn = try #require(try await rater.save([World.score(5, type: World.estimated, minute: 72)]).first)
        let visibleOnOwn = try #require(try await rater.save([World.score(8, minute: 74)]).first)

        let transcript = Transcript()
        let observer = Task {
            for try await payload in client.serverStream(HealthStoreMethod.observeChanges.rawValue,
                                                         TypePredicateSpec(typeIdentifier: World.effort).wireBytes()) {
                let update = try ObserverDelivery(wire: payload)
                transcript.observerUpdates.withLock { $0.append(update) }
                _ = try await client.unary(HealthStoreMethod.acknowledgeObserverUpdate.rawValue,
                                           ObserverAcknowledgement(update, .handledAndCompleted).wireBytes())
            }
        }
        defer { observer.cancel() }
        let relationships = Task {
            let query = WorkoutEffortQuery(predicate: nil, mostRelevant: false, longRunning: true)
            for try await payload in client.serverStream(HealthStoreMethod.queryWorkoutEffortRelationships.rawValue, query.wireBytes()) {
                let delivery = try WorkoutEffortRelations(wire: payload)
                transcript.relationDeliveries.withLock { $0.append(delivery.relations) }
            }
        }
        defer { relationships.cancel() }
        // HealthKit fires an observer once at start; the relationship query answers at once.
        #expect(try await transcript.wait(until: { $0 == 1 && $1 == 1 }, seconds: 60), "\(transcript.counts())")
        #expect(transcript.relationDeliveries.withLock { $0 } == [[]])

        // The two hidden relations: a correct healthd sends nothing for them; a leaking one would
        // within milliseconds, so this wait can only fail when something leaks.
        #expect(try await World.relate(rater, visibleOnHidden, hiddenWorkout) == nil)
        #expect(try await World.relate(rater, estimatedOnOwn, ownWorkout) == nil)
        #expect(try await transcript.wait(until: { $0 > 1 || $1 > 1 }, seconds: 1.5) == false,
                "a hidden relation woke the reader: \(transcript.counts())")

        // The control: a relation the reader may see wakes both.
        #expect(try await World.relate(rater, visibleOnOwn, ownWorkout) == nil)
        #expect(try await transcript.wait(until: { $0 == 2 && $1 == 2 }, seconds: 30),
                "a visible relation must wake the observer and the relationship query: \(transcript.counts())")
        #expect(transcript.relationDeliveries.withLock { $0.last }
                == [WorkoutEffortRelation(workoutUUID: ownWorkout, activityUUID: nil, sampleUUIDs: [visibleOnOwn])])

        // Unrelating a hidden one wakes nobody; unrelating the visible one wakes both again.
        #expect(try await World.unrelate(rater, visibleOnHidden, hiddenWorkout) == nil)
        #expect(try await transcript.wait(until: { $0 > 2 || $1 > 2 }, seconds: 1.5) == false,
                "a hidden unrelate woke the reader: \(transcript.counts())")
        #expect(try await World.unrelate(rater, visibleOnOwn, ownWorkout) == nil)
        #expect(try await transcript.wait(until: { $0 == 3 && $1 == 3 }, seconds: 30), "\(transcript.counts())")
        #expect(transcript.relationDeliveries.withLock { $0.last }
                == [WorkoutEffortRelation(workoutUUID: ownWorkout, activityUUID: nil, sampleUUIDs: [])])
    }
}
