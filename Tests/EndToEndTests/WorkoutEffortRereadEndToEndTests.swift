import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthStore
import HealthWire
import Synchronization
import Testing
import TestSupport

/// DESIGN.md §7.3 for `HKWorkoutEffortRelationshipQuery`'s update deliveries held up by their reader
/// (SECURITY.md "A second reading is bounded by the first"). A long-running effort query's update
/// is one frame, but it waits behind whatever the connection still has to hand to the socket
/// (`CallResponder.send(_:ifStillCurrent:)`); whether it is read again while it waits, and what a
/// second reading holds, must not depend on a deletion its reader cannot see.
///
/// What can be ahead of it: the update is computed in a store visit that takes a query slot of
/// its app's (`ScheduledStoreVisits`, one per app). A finite large query of the same app (an
/// HKSampleQuery of documents) holds that slot for its whole call, parked or not, so an update
/// behind one is not even computed until it has drained — session 18's version of this suite
/// stalled the connection that way and tested nothing. A long-running query's delivery holds no
/// slot while it waits for its reader, so an update computed meanwhile does wait behind it. Here:
/// an `HKStatisticsCollectionQuery` with a `statisticsUpdateHandler` over the reader's own steps,
/// one interval a minute for 10 days, whose initial delivery (14,400 intervals) outgrows the socket.
///
/// The reader (this test process) runs the relationship query and, on the same connection, that
/// watch, whose initial delivery it does not read. Over a second connection it relates a second
/// effort score of its own to its workout — the query computes that update and waits behind the
/// delivery — and then unrelates its first score. The user deletes a body-mass sample of their
/// own, a type the reader cannot read (`deletion`), or does not (`twin`). Then the reader reads
/// to the end.
///
/// Apple's header (HKWorkoutEffortRelationshipQuery.h, iOS 18 SDK): "future callbacks will contain
/// new relationships as well as any changes to previous relationships along with a new anchor". In
/// both worlds the two updates must be the same: the relationship with both scores (as it was when
/// the relate was answered), then with the second alone (the unrelate); and healthd must have read
/// nothing again (healthctl status, "Answers read again"): the deletion is hidden from the reader.
/// With session 17's rule (any deletion makes a held-up frame stale) the deletion world reads the
/// update and the watch's delivery again — the bytes are the same (the second reading is bounded
/// by the first and restores the unrelated score), but the reading again is work the reader can
/// time, and it fails the count.
///
/// The stall is checked, not assumed: the delivery must fill the socket (`waitUntilStalled`), and
/// healthd must have sent on well past it (`wentOnPastStall`); the twin's first update holding the
/// first score shows it was computed before the unrelate and held up until after it.
///
/// One healthd for both worlds. Each world waits 4 s for the update to be computed behind the stall.
///
/// Disabled, not finished (session 19): behind the watch's unread delivery (475 kB, 215 kB unread
/// at the stall) the update is still computed only after the delivery drained — both worlds get
/// one update, with the second score alone — so the case tests nothing yet. What still holds the
/// update's store visit back is to be found (the watch holds no slot between its visits by
/// `ScheduledStoreVisits`' rule). The rule itself is tested in the store by
/// `WorkoutEffortStoreTests.aLaterReadingIsTheRelationsAsTheFirstFoundThemLessWhatLeftTheStore`.
@Suite(.timeLimit(.minutes(10)), .serialized,
       .disabled("the stall does not hold the update yet: it is computed after the watch's delivery ahead of it drains"))
struct WorkoutEffortRereadEndToEndTests {
    static let reader = "org.test.effort-reread-reader"
    static let workout = HKWorkoutTypeIdentifier
    static let effort = HKQuantityTypeIdentifier.workoutEffortScore.rawValue
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    /// The user's type: one the reader cannot read.
    static let bodyMass = HKQuantityTypeIdentifier.bodyMass.rawValue
    /// 2020-09-14 00:00 UTC: the reader's steps run 10 days from here (one interval a minute).
    static let stepsStart = Date(timeIntervalSince1970: 1_600_041_600)
    /// Call numbers on the reader's stalled connection, in the order it starts them.
    static let effortCall: UInt64 = 1
    static let watchCall: UInt64 = 2

    enum Variant: String, CaseIterable, CustomStringConvertible {
        case twin
        case deletion
        var description: String { rawValue }
    }

    /// What one world's reader got: the updates after the initial delivery, with their anchors
    /// blanked (each is sealed with a fresh nonce), and the watch's initial delivery as read.
    struct Updates {
        var updates: [WorkoutEffortRelations] = []
        var watch = LargeDocumentWorld.ReadAnswer()
        var watchDelivered = false
    }

    @Test func aHeldUpUpdateIsWhatTheTwinGetsAndIsNotReadAgainAtAHiddenDeletion() async throws {
        let broker = try BrokerProcess(extraArguments: ["--stalled-peer-timeout", "600"])
        defer { broker.stop() }
        try await broker.install(appID: Self.reader, executable: Products.testProcessExecutable)
        try await broker.allowDirect(Self.reader)
        for type in [Self.workout, Self.effort, Self.steps] { try await broker.set(Self.reader, "share", type, allowed: true) }
        let hidden = try await broker.addUserSample(Self.bodyMass, 70, "kg", from: RawRecords.start, to: RawRecords.start)
        let setup = try RPCClient.connect(path: broker.appSocket)
        let long = SampleRecord(uuid: UUID(), typeIdentifier: Self.steps, startDate: Self.stepsStart,
                                endDate: Self.stepsStart.addingTimeInterval(10 * 86_400), value: .quantity(14_400, unit: "count"))
        _ = try await Self.save(setup, [long])
        setup.close()

        var got: [Variant: (updates: Updates, first: UUID, second: UUID, workout: UUID, readAgain: Int)] = [:]
        for variant in Variant.allCases {
            let client = try RPCClient.connect(path: broker.appSocket)
            defer { client.close() }
            // The reader's own workout and two scores, the first related.
            let workoutUUID = try #require(try await Self.save(client, [RawRecords.workout()]).first)
            let scores = try await Self.save(client, [Self.score(7, minute: 10), Self.score(9, minute: 20)])
            let (first, second) = (try #require(scores.first), try #require(scores.last))
            try await Self.change(client, .relateWorkoutEffort, first, workoutUUID)
            let readAgainBefore = try await broker.answersReadAgain()

            let fd = try UnixSocket.connect(path: broker.appSocket)
            defer { close(fd) }
            // The relationship query, for this workout only, its initial delivery read.
            let query = WorkoutEffortQuery(predicate: .uuids([workoutUUID]), mostRelevant: false, longRunning: true)
            sendAll(FrameCodec.encode(.request(Self.effortCall, HealthStoreMethod.queryWorkoutEffortRelationships.rawValue,
                                               query.wireBytes())), to: fd)
            let initial = try Self.read(fd, updatesAfterInitial: 0, until: Date().addingTimeInterval(60))
            #expect(initial.updates.first?.relations == [Self.relation(workoutUUID, [first])], "\(variant): the initial delivery")
            // The watch, its initial delivery unread: the connection stalls, and no slot is held.
            let collection = StatisticsCollectionSpec(statistics: StatisticsQuerySpec(typeIdentifier: Self.steps, options: .cumulativeSum),
                                                      anchor: Self.stepsStart, interval: StatisticsInterval(minutes: 1),
                                                      timeZoneIdentifier: "UTC")
            sendAll(FrameCodec.encode(.request(Self.watchCall, HealthStoreMethod.watchStatisticsCollection.rawValue,
                                               collection.wireBytes())), to: fd)
            let unread = try await LargeDocumentWorld.waitUntilStalled(fd)
            // The update this relate wakes is computed now and held up behind the delivery.
            try await Self.change(client, .relateWorkoutEffort, second, workoutUUID)
            // Time to compute it (a wake-up, a slot, one read: milliseconds, but seconds at a
            // load average of 25); one computed late shows as a single update, and the case fails.
            try await Task.sleep(for: .seconds(4))
            try await Self.change(client, .unrelateWorkoutEffort, first, workoutUUID)
            if variant == .deletion { try await broker.deleteUserSample(hidden) }
            let read = try Self.read(fd, updatesAfterInitial: 2, until: Date().addingTimeInterval(120))
            let readAgain = try await broker.answersReadAgain() - readAgainBefore
            print("WorkoutEffortReread \(variant): \(read.watch.wireBytes) watch bytes, \(unread) unread at the stall, "
                  + "\(read.updates.count) updates, \(readAgain) read again")
            #expect(read.watchDelivered, "\(variant): the watch's initial delivery did not end")
            #expect(LargeDocumentWorld.wentOnPastStall(read.watch, unreadAtStall: unread),
                    "\(variant): healthd sent nothing after the stall (\(read.watch.wireBytes) bytes, \(unread) unread then)")
            got[variant] = (read, first, second, workoutUUID, readAgain)
        }

        for variant in Variant.allCases {
            let world = try #require(got[variant])
            let updates = world.updates.updates.map(\.relations)
            let expected = [[Self.relation(world.workout, [world.first, world.second])], [Self.relation(world.workout, [world.second])]]
            #expect(updates == expected, """
                \(variant): the held-up update must be the relationship as the relate left it, then the unrelate's: \
                \(updates) (one update with the second score alone: the update was not held up, the case tests nothing)
                """)
            #expect(world.updates.updates.allSatisfy { $0.anchor.count == AnchorSealer.anchorLength })
            #expect(world.readAgain == 0,
                    "\(variant): healthd read \(world.readAgain) held-up answers again: a deletion the reader cannot see made them stale")
        }
    }

    static func score(_ value: Double, minute: Int) -> SampleRecord {
        let date = RawRecords.start.addingTimeInterval(Double(minute) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: effort, startDate: date, endDate: date,
                            value: .quantity(value, unit: "appleEffortScore"))
    }

    static func relation(_ workout: UUID, _ samples: [UUID]) -> WorkoutEffortRelation {
        WorkoutEffortRelation(workoutUUID: workout, activityUUID: nil, sampleUUIDs: samples)
    }

    static func save(_ client: RPCClient, _ records: [SampleRecord]) async throws -> [UUID] {
        try SavedUUIDs(wire: await client.unary(HealthStoreMethod.save.rawValue, SampleList(records).wireBytes())).uuids
    }

    static func change(_ client: RPCClient, _ method: HealthStoreMethod, _ sample: UUID, _ workout: UUID) async throws {
        _ = try await client.unary(method.rawValue, WorkoutEffortRelationChange(sampleUUID: sample, workoutUUID: workout,
                                                                                 activityUUID: nil).wireBytes())
    }

    /// Reads `fd` until the effort call sent its initial delivery and `updatesAfterInitial` more
    /// (returned without the initial one when any are asked for) and the watch, if it was
    /// started, ended its initial delivery — or until `until`.
    static func read(_ fd: Int32, updatesAfterInitial: Int, until: Date) throws -> Updates {
        var result = Updates()
        var deliveries: [WorkoutEffortRelations] = []
        var reader = FrameReader()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let watchStarted = updatesAfterInitial > 0
        while Date() < until {
            if deliveries.count == updatesAfterInitial + 1, !watchStarted || result.watchDelivered { break }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) >= 0 else { break }
            guard entry.revents != 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            for body in try reader.consume(chunk[0..<count]) {
                let frame = try FrameCodec.decode(body)
                switch (frame.callID, frame.kind) {
                case (effortCall, .streamMessage):
                    var delivery = try WorkoutEffortRelations(wire: frame.payload)
                    if delivery.anchor.count == AnchorSealer.anchorLength { delivery.anchor = [UInt8](repeating: 0, count: delivery.anchor.count) }
                    deliveries.append(delivery)
                case (watchCall, _):
                    let bytes = body.count + FrameCodec.lengthPrefixBytes
                    result.watch.wireBytes += bytes
                    result.watch.largestFrame = max(result.watch.largestFrame, bytes)
                    switch frame.kind {
                    case .streamMessage:
                        if try StatisticsCollectionDelivery(wire: frame.payload).endOfDelivery { result.watchDelivered = true }
                    case .endOfStream, .response:
                        result.watch.status = frame.status
                    default: break
                    }
                default:
                    continue
                }
            }
        }
        result.updates = updatesAfterInitial > 0 ? Array(deliveries.dropFirst()) : deliveries
        return result
    }
}
