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
/// is one frame, but it waits behind whatever the connection still has to hand to the socket; if
/// any object leaves the store meanwhile — another app's hidden deletion included — it is read
/// again (`StreamVisibility`), within its first reading's snapshot (`ReadSnapshot`). What that
/// second reading holds must not depend on the deletion.
///
/// The reader (this test process) runs a long-running relationship query and, on the same
/// connection, an HKSampleQuery of large documents it does not read (`LargeDocumentWorld`), so the
/// connection stalls. Over a second connection it relates a second effort score of its own to its
/// workout — the query computes that update and waits behind the documents — and then unrelates
/// its first score. A third app, a separate sandboxed process, deletes one of its own objects of a
/// type the reader cannot read (`deletion`) or does not (`twin`). Then the reader reads to the end.
///
/// Apple's header (HKWorkoutEffortRelationshipQuery.h, iOS 18 SDK): "future callbacks will contain
/// new relationships as well as any changes to previous relationships along with a new anchor". In
/// both worlds the two updates must be the same: the relationship with both scores (as it was when
/// the relate was answered), then with the second alone (the unrelate). Session 17 left this open:
/// the deletion world's second reading lost the first score — its relation row was gone and the
/// removal kept no sample to put it back — so the first update differed from the twin's.
///
/// The stall is checked, not assumed: the documents must fill the socket (`waitUntilStalled`), and
/// healthd must have sent on well past it (`wentOnPastStall`); the twin's first update holding the
/// first score shows it was computed before the unrelate and held up until after it.
///
/// One healthd for both worlds; three documents (2.7 MB) are enough to stall a connection.
///
/// Disabled, not finished (session 18): the documents do stall the connection (219 kB unread), but
/// the update the relate wakes is not computed until the documents have drained — both worlds get
/// one update, with the second score alone, 5 s after the relate — so the case tests nothing yet.
/// What holds the delivery back (the app's query admission while its sample query is parked?) is
/// to be found; the rule itself is tested in the store by
/// `WorkoutEffortStoreTests.aLaterReadingIsTheRelationsAsTheFirstFoundThemLessWhatLeftTheStore`.
@Suite(.timeLimit(.minutes(10)), .serialized,
       .disabled("the stall does not hold the update yet: it is computed after the answer ahead of it drains"))
struct WorkoutEffortRereadEndToEndTests {
    static let reader = "org.test.effort-reread-reader"
    static let writer = "org.test.effort-reread-writer"
    static let deleter = "org.test.effort-reread-deleter"
    static let workout = HKWorkoutTypeIdentifier
    static let effort = HKQuantityTypeIdentifier.workoutEffortScore.rawValue
    /// The deleter's type: one the reader cannot read.
    static let bodyMass = HKQuantityTypeIdentifier.bodyMass.rawValue
    /// Call numbers on the reader's stalled connection, in the order it starts them.
    static let effortCall: UInt64 = 1
    static let documentCall: UInt64 = 2

    enum Variant: String, CaseIterable, CustomStringConvertible {
        case twin
        case deletion
        var description: String { rawValue }
    }

    /// What one world's reader got: the updates after the initial delivery, with their anchors
    /// blanked (each is sealed with a fresh nonce), and the documents' bytes.
    struct Updates {
        var updates: [WorkoutEffortRelations] = []
        var documentBytes = 0
        var documentStatus: RPCStatus?
        var largestFrame = 0
    }

    @Test func aHeldUpUpdateReadAgainIsWhatTheTwinGetsAfterTheReaderUnrelatesItsOwnScore() async throws {
        let documents = try await LargeDocumentWorld(
            arguments: ["--stalled-peer-timeout", "600"], writer: Self.writer, reader: Self.reader, documents: 3,
            readerGrants: [("share", Self.workout), ("share", Self.effort)])
        let broker = documents.broker
        defer { broker.stop() }
        let deleter = try await broker.installClient(Self.deleter)
        try await broker.set(deleter, "share", Self.bodyMass, allowed: true)
        try await broker.set(deleter, "read", Self.bodyMass, allowed: true)
        let saved = try await broker.runApp(deleter, ["save", Self.bodyMass, "70", "kg", "1700000000", "1700000000"])
        let hiddenUUID = try #require(saved.okValue, "the deleter's save: \(saved)")

        var got: [Variant: (updates: Updates, first: UUID, second: UUID, workout: UUID)] = [:]
        for variant in Variant.allCases {
            let client = try RPCClient.connect(path: broker.appSocket)
            defer { client.close() }
            // The reader's own workout and two scores, the first related.
            let workoutUUID = try #require(try await Self.save(client, [RawRecords.workout()]).first)
            let scores = try await Self.save(client, [Self.score(7, minute: 10), Self.score(9, minute: 20)])
            let (first, second) = (try #require(scores.first), try #require(scores.last))
            try await Self.change(client, .relateWorkoutEffort, first, workoutUUID)

            let fd = try UnixSocket.connect(path: broker.appSocket)
            defer { close(fd) }
            // The relationship query, for this workout only, its initial delivery read.
            let query = WorkoutEffortQuery(predicate: .uuids([workoutUUID]), mostRelevant: false, longRunning: true)
            sendAll(FrameCodec.encode(.request(Self.effortCall, HealthStoreMethod.queryWorkoutEffortRelationships.rawValue,
                                               query.wireBytes())), to: fd)
            let initial = try Self.read(fd, updatesAfterInitial: 0, until: Date().addingTimeInterval(60))
            #expect(initial.updates.first?.relations == [Self.relation(workoutUUID, [first])], "\(variant): the initial delivery")
            // The documents, unread: the connection stalls.
            sendAll(FrameCodec.encode(.request(Self.documentCall, HealthStoreMethod.querySamples.rawValue,
                                               LargeDocumentWorld.documentQuery)), to: fd)
            let unread = try await LargeDocumentWorld.waitUntilStalled(fd)
            // The update this relate wakes is computed now and held up behind the documents.
            try await Self.change(client, .relateWorkoutEffort, second, workoutUUID)
            // Time to compute it (a wake-up, a thread, one read: milliseconds, but seconds at a
            // load average of 25); one computed late shows as a single update, and the case fails.
            try await Task.sleep(for: .seconds(5))
            try await Self.change(client, .unrelateWorkoutEffort, first, workoutUUID)
            if variant == .deletion {
                let deleted = try await broker.runApp(Self.deleter, ["delete", Self.bodyMass, hiddenUUID])
                #expect(deleted.okValue == "1", "the hidden deletion: \(deleted)")
            }
            let read = try Self.read(fd, updatesAfterInitial: 2, until: Date().addingTimeInterval(120))
            print("WorkoutEffortReread \(variant): \(read.documentBytes) document bytes, \(unread) unread at the stall, "
                  + "\(read.updates.count) updates")
            #expect(read.documentStatus?.code == .ok, "\(variant): the documents: \(String(describing: read.documentStatus))")
            var answer = LargeDocumentWorld.ReadAnswer()
            answer.wireBytes = read.documentBytes
            answer.largestFrame = read.largestFrame
            #expect(LargeDocumentWorld.wentOnPastStall(answer, unreadAtStall: unread),
                    "\(variant): healthd sent nothing after the stall (\(read.documentBytes) bytes, \(unread) unread then)")
            got[variant] = (read, first, second, workoutUUID)
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
    /// (returned without the initial one when any are asked for) and the document call, if any was
    /// sent, ended — or until `until`.
    static func read(_ fd: Int32, updatesAfterInitial: Int, until: Date) throws -> Updates {
        var result = Updates()
        var deliveries: [WorkoutEffortRelations] = []
        var reader = FrameReader()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let documentsAsked = updatesAfterInitial > 0
        while Date() < until {
            if deliveries.count == updatesAfterInitial + 1, !documentsAsked || result.documentStatus != nil { break }
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
                case (documentCall, _):
                    result.documentBytes += body.count + FrameCodec.lengthPrefixBytes
                    result.largestFrame = max(result.largestFrame, body.count + FrameCodec.lengthPrefixBytes)
                    switch frame.kind {
                    case .endOfStream, .response: result.documentStatus = frame.status
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
