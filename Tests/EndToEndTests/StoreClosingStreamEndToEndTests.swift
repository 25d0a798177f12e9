import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Synchronization
import Testing
import TestSupport

/// An answer in many messages that the store closes under (privacy review, session 19, finding 7).
/// The reader holds up a large answer (it reads nothing until the socket is full); then nobody
/// deletes anything (`none`), the user deletes a sample of a type the reader cannot read
/// (`hidden`), or the reader deletes one of its own that the answer already sent (`visible`); then
/// the user runs `healthctl key rotate` or `healthctl lock`; then the reader reads to the end.
///
/// Every answer must end the same way, in every world: UNAVAILABLE with errorDatabaseInaccessible,
/// the status every call gets while the store is locked — and the two worlds that differ only by
/// the hidden deletion must get the same bytes and the same ending. Nothing may be read again.
///
/// Before session 20, after a key rotation, a long-running query's held-up delivery (a collection
/// watch's, an anchored query's with updates) went on sending what it had read from the closed
/// store: it completed in the world without a deletion, and in both worlds with one healthd died
/// with SIGSEGV — the delivery asked the closed side connection whether the deletion was one its
/// reader could see (shown with the fix reverted in a local build). (A lock ended them anyway, by
/// `LockSignal`; a finite large query held up is parked, and a drain ends it.)
///
/// One healthd for the suite, started with a long stalled-peer timeout so that the writer's 10 s
/// timeout does not end the held-up answers first.
@Suite(.timeLimit(.minutes(10)), .serialized)
struct StoreClosingStreamEndToEndTests {
    static let reader = "org.test.closing-stream-reader"
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    /// The user's type: one the reader cannot read.
    static let bodyMass = HKQuantityTypeIdentifier.bodyMass.rawValue
    /// 2020-09-14 00:00 UTC: the reader's steps run 10 days from here (one interval a minute).
    static let stepsStart = Date(timeIntervalSince1970: 1_600_041_600)
    /// Reader's rows heavy enough that the anchored answer (2.6 MB) outgrows the socket.
    static let heavyRows = 40
    static let heavyMetadata: [String: MetadataValue] = Dictionary(uniqueKeysWithValues: (0..<16).map {
        ("org.test.padding.\($0)", MetadataValue.string(String(repeating: "p", count: 4_000)))
    })

    /// The answers held up.
    enum Kind: String, CaseIterable, CustomStringConvertible, Sendable {
        /// HKStatisticsCollectionQuery with a `statisticsUpdateHandler`, by the minute over 10
        /// days: its initial delivery (14,400 intervals) is held up, outside the store.
        case statisticsCollectionWithUpdates
        /// HKAnchoredObjectQuery with an `updateHandler`, from the start: its initial delivery.
        case anchoredQueryWithUpdates
        /// The same collection without updates: a finite large query, parked while held up.
        case statisticsCollection

        var description: String { rawValue }

        var isLongRunning: Bool { self != .statisticsCollection }

        var method: String {
            switch self {
            case .statisticsCollectionWithUpdates: HealthStoreMethod.watchStatisticsCollection.rawValue
            case .anchoredQueryWithUpdates: HealthStoreMethod.queryAnchored.rawValue
            case .statisticsCollection: HealthStoreMethod.queryStatisticsCollection.rawValue
            }
        }

        var request: [UInt8] {
            switch self {
            case .statisticsCollectionWithUpdates, .statisticsCollection:
                StatisticsCollectionSpec(statistics: StatisticsQuerySpec(typeIdentifier: steps, options: .cumulativeSum),
                                         anchor: stepsStart, interval: StatisticsInterval(minutes: 1), timeZoneIdentifier: "UTC").wireBytes()
            case .anchoredQueryWithUpdates:
                AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: steps, predicate: nil)], longRunning: true).wireBytes()
            }
        }

        /// Whether `payload` is the last message of a long-running query's delivery.
        func endsDelivery(_ payload: [UInt8]) throws -> Bool {
            switch self {
            case .statisticsCollectionWithUpdates: try StatisticsCollectionDelivery(wire: payload).endOfDelivery
            case .anchoredQueryWithUpdates: try AnchoredQueryBatch(wire: payload).endOfDelivery
            case .statisticsCollection: false
            }
        }

        /// A payload as compared: an anchored batch's anchor is sealed afresh (a new nonce).
        func comparable(_ payload: [UInt8]) throws -> [UInt8] {
            guard self == .anchoredQueryWithUpdates else { return payload }
            var batch = try AnchoredQueryBatch(wire: payload)
            if !batch.anchor.isEmpty { batch.anchor = [1] }
            return batch.wireBytes()
        }
    }

    /// What closes the store under the held-up answer.
    enum Closing: String, CaseIterable, CustomStringConvertible, Sendable {
        case keyRotation
        case lock
        var description: String { rawValue }
    }

    /// What is deleted while the answer is held up, before the store closes.
    enum Deletion: String, CaseIterable, CustomStringConvertible, Sendable {
        case none
        /// The user deletes a body-mass sample: a deletion the reader cannot see.
        case hidden
        /// The reader deletes one of its own steps, which the answer already sent.
        case visible
        var description: String { rawValue }
    }

    final class World: Sendable {
        let broker: BrokerProcess
        /// The reader's small steps, one deleted per `visible` world: each the earliest of its
        /// answers (already sent when they stall).
        let deletable: Mutex<[UUID]>
        /// The user's body-mass samples, one deleted per `hidden` world.
        let hidden: Mutex<[UUID]>
        private let finished = Mutex(0)
        static let tests = Closing.allCases.count * Kind.allCases.count

        init() async throws {
            broker = try BrokerProcess(extraArguments: ["--stalled-peer-timeout", "600"])
            let reader = StoreClosingStreamEndToEndTests.reader
            try await broker.install(appID: reader, executable: Products.testProcessExecutable)
            try await broker.allowDirect(reader)
            try await broker.set(reader, "share", steps, allowed: true)
            var hidden: [UUID] = []
            for index in 0..<Self.tests {
                let at = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
                hidden.append(try await broker.addUserSample(bodyMass, 70, "kg", from: at, to: at))
            }
            self.hidden = Mutex(hidden)
            let client = try RPCClient.connect(path: broker.appSocket)
            defer { client.close() }
            func save(_ records: [SampleRecord]) async throws -> [UUID] {
                try SavedUUIDs(wire: await client.unary(HealthStoreMethod.save.rawValue, SampleList(records).wireBytes())).uuids
            }
            func sample(_ start: Date, seconds: Double = 0, _ value: Double, metadata: [String: MetadataValue] = [:]) -> SampleRecord {
                SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(seconds),
                             value: .quantity(value, unit: "count"), metadata: metadata)
            }
            // The deletables first: the earliest changes (anchored answers) and starts (collections).
            deletable = Mutex(try await save((0..<Self.tests).map { sample(stepsStart.addingTimeInterval(Double($0)), 1) }))
            _ = try await save([sample(stepsStart, seconds: 10 * 86_400, 14_400)])
            _ = try await save((0..<heavyRows).map {
                sample(stepsStart.addingTimeInterval(Double($0 + 1) * 3_600), seconds: 10, 10, metadata: heavyMetadata)
            })
        }

        /// Every test of the suite calls this once done: the last stops healthd.
        func testFinished() {
            let all = finished.withLock { count in
                count += 1
                return count == Self.tests
            }
            if all { broker.stop() }
        }

        func delete(_ deletion: Deletion) async throws {
            switch deletion {
            case .none:
                return
            case .hidden:
                let uuid = try #require(hidden.withLock { $0.popLast() }, "no hidden sample left")
                try await broker.deleteUserSample(uuid)
            case .visible:
                let uuid = try #require(deletable.withLock { $0.popLast() }, "no deletable sample left")
                let client = try RPCClient.connect(path: broker.appSocket)
                defer { client.close() }
                let deletion = ObjectDeletion([ObjectReference(typeIdentifier: steps, uuid: uuid)])
                let count = try DeletedCount(wire: await client.unary(HealthStoreMethod.deleteObjects.rawValue, deletion.wireBytes())).count
                try #require(count == 1, "the reader's own sample was not deleted")
            }
        }

        func close(_ closing: Closing) async throws {
            let command = closing == .lock ? ["lock"] : ["key", "rotate"]
            let result = try await broker.healthctl(command)
            guard result.status == 0 else { throw CommandFailed(result: result) }
        }

        /// After a lock, the unlock (the machine key protects the store); nothing after a rotation.
        func reopen(_ closing: Closing) async throws {
            guard closing == .lock else { return }
            let result = try await broker.healthctl(["unlock"])
            guard result.status == 0 else { throw CommandFailed(result: result) }
        }
    }

    static let world = Task { try await World() }

    /// What one world's reader got: the messages as compared, and how the answer ended.
    struct Ending {
        var payloads: [[UInt8]]
        var status: RPCStatus?
        var readAgain: Int
        var unreadAtStall: Int
    }

    @Test(arguments: Closing.allCases, Kind.allCases)
    func anAnswerTheStoreClosesUnderEndsAsTheLockedStoreAnswersWhateverWasDeleted(_ closing: Closing, _ kind: Kind) async throws {
        let world = try await Self.world.value
        defer { world.testFinished() }
        var endings: [Deletion: Ending] = [:]
        for deletion in Deletion.allCases {
            let readAgain = try await world.broker.answersReadAgain()
            let fd = try UnixSocket.connect(path: world.broker.appSocket)
            defer { close(fd) }
            sendAll(FrameCodec.encode(.request(1, kind.method, kind.request)), to: fd)
            let unread = try await LargeDocumentWorld.waitUntilStalled(fd)
            try await world.delete(deletion)
            try await world.close(closing)
            let answer = try LargeDocumentWorld.readAnswer(fd, deliveries: kind.isLongRunning ? 1 : nil, endsDelivery: kind.endsDelivery,
                                                           timeout: 60)
            try await world.reopen(closing)
            let ending = Ending(payloads: try answer.payloads.map(kind.comparable), status: answer.status,
                                readAgain: try await world.broker.answersReadAgain() - readAgain, unreadAtStall: unread)
            print("StoreClosingStream \(closing), \(kind), \(deletion): \(answer.wireBytes) bytes in \(answer.payloads.count) messages, "
                  + "\(unread) unread at the stall, ended \(answer.status.map { "\($0.code) \($0.message)" } ?? "not (the delivery completed)"), "
                  + "\(ending.readAgain) read again")
            endings[deletion] = ending
        }
        for deletion in Deletion.allCases {
            let ending = try #require(endings[deletion])
            #expect(ending.status?.code == .unavailable && ending.status?.healthKitCode == .errorDatabaseInaccessible,
                    "\(closing), \(kind), \(deletion): ended \(String(describing: ending.status)), not as the locked store answers")
            #expect(ending.readAgain == 0, "\(closing), \(kind), \(deletion): read again \(ending.readAgain) times after the store closed")
        }
        let twin = try #require(endings[.none])
        let hidden = try #require(endings[.hidden])
        #expect(hidden.status == twin.status, "\(closing), \(kind): a hidden deletion changed how the answer ended")
        #expect(hidden.payloads == twin.payloads,
                "\(closing), \(kind): a hidden deletion changed what the answer sent (\(hidden.payloads.count) vs \(twin.payloads.count) messages)")
    }
}
