import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Synchronization
import Testing
import TestSupport

/// DESIGN.md §7.3 for answers a reader holds up (privacy review, session 16, finding 2): a stalled
/// answer is read again when it went stale. Until session 18 it went stale when *any* object left
/// the store — another app's hidden deletion included; what a second reading holds must not depend
/// on that: it is bounded by the first reading's change number (`ReadSnapshot`, held by
/// `StreamVisibility`).
///
/// For each answer read more than once (`Answer`), each big enough to stall by its own size: the
/// reader (this test process) starts it on a connection of its own and stops reading; once healthd
/// has stopped writing (`LargeDocumentWorld.waitUntilStalled`) the reader saves a sample of its own
/// over a second connection — one the answer would hold, in a part not yet sent — and a third app
/// deletes one of its own objects of a type the reader cannot read (`deletion`) or does not
/// (`twin`). Then the reader reads to the end. In both worlds its answer must be byte for byte the
/// answer it got just before (the first reading's: nothing else changed), its anchor must go on to
/// exactly the late sample, and healthd must have sent frames after the stall
/// (`wentOnPastStall`), or the case tested nothing. The control: a fresh answer does hold the
/// late sample. Without the bound, the deletion world's statistics and summaries change in
/// their last interval or day, and its anchored answer holds the late sample.
///
/// Neither world reads the answer again at all (session 18, privacy review finding 3): the third
/// app's deletion is one the reader cannot see, and only a deletion it could see makes a stalled
/// answer stale (`VisibleDeletions`). Counted where every reading again begins
/// (`StreamVisibility.refresh`; `healthctl status`, "Answers read again"), not timed: with session
/// 17's rule the deletion world read every answer again — and a collection of 14,400 intervals or
/// 12,000 days of summaries is recomputed whole, a delay the reader can time.
///
/// The watches (`…WithUpdates`) read a delivery again the same way when it went stale while held
/// up: their initial delivery is stalled, and must be the first reading's in both worlds, the late
/// sample following as the next delivery. Before session 17 they computed the stale delivery
/// afresh, so in the deletion world it held the late sample and no update followed.
///
/// One healthd for the suite. Over a minute: twelve documents saved, then five answers of
/// 0.5–11 MB (each must outgrow the socket to stall) read four times each: 250 s measured at a
/// load average of 30 (six builds beside it).
@Suite(.timeLimit(.minutes(10)), .serialized) struct BoundedRereadEndToEndTests {
    static let reader = "org.test.reread-reader"
    static let writer = "org.test.reread-writer"
    static let deleter = "org.test.reread-deleter"
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let energy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
    /// The deleter's type: one the reader cannot read.
    static let bodyMass = HKQuantityTypeIdentifier.bodyMass.rawValue
    /// 2020-09-14 00:00 UTC: the reader's steps run 10 days from here, one interval a minute.
    static let stepsStart = 1_600_041_600.0
    static let stepsDays = 10.0
    /// 1971-01-01 00:00 UTC: the reader's active energy runs `energyDays` days from here (a day's
    /// summary is about 24 bytes on the wire: 12,000 days are about 290 kB, past the ~205 kB the
    /// socket took here plus two frames; 6,000 days fitted the socket and did not stall).
    static let energyStart = 31_536_000.0
    static let energyDays = 12_000.0

    /// The answers a stream reads again after a stall.
    enum Answer: String, CaseIterable, CustomStringConvertible {
        /// HKAnchoredObjectQuery of documents and steps: about 11 MB in batches of one document.
        case anchoredQuery
        /// HKStatisticsCollectionQuery of steps by the minute over 10 days: 14,400 intervals.
        case statisticsCollection
        /// HKActivitySummaryQuery over 12,000 days.
        case activitySummaries
        /// The collection with a `statisticsUpdateHandler`: its initial delivery is stalled.
        case statisticsCollectionWithUpdates
        /// The summaries with an `updateHandler`: its initial delivery is stalled.
        case activitySummariesWithUpdates

        /// A long-running query: compared by deliveries, the first stalled.
        var isWatch: Bool { self == .statisticsCollectionWithUpdates || self == .activitySummariesWithUpdates }

        var description: String { rawValue }

        var method: String {
            switch self {
            case .anchoredQuery: HealthStoreMethod.queryAnchored.rawValue
            case .statisticsCollection: HealthStoreMethod.queryStatisticsCollection.rawValue
            case .activitySummaries: HealthStoreMethod.queryActivitySummaries.rawValue
            case .statisticsCollectionWithUpdates: HealthStoreMethod.watchStatisticsCollection.rawValue
            case .activitySummariesWithUpdates: HealthStoreMethod.watchActivitySummaries.rawValue
            }
        }

        var request: [UInt8] {
            switch self {
            case .anchoredQuery:
                return AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: LargeDocumentWorld.cda),
                                                       TypePredicateSpec(typeIdentifier: steps)]).wireBytes()
            case .statisticsCollection, .statisticsCollectionWithUpdates:
                return StatisticsCollectionSpec(statistics: StatisticsQuerySpec(typeIdentifier: steps, options: .cumulativeSum),
                                                anchor: Date(timeIntervalSince1970: stepsStart), interval: StatisticsInterval(minutes: 1),
                                                timeZoneIdentifier: "UTC").wireBytes()
            case .activitySummaries, .activitySummariesWithUpdates:
                return ActivitySummaryQuerySpec(timeZoneIdentifier: "UTC").wireBytes()
            }
        }

        /// The reader's late sample of run `run`: in the answer's last stretch, which a stalled
        /// answer has not sent yet.
        func lateSample(run: Int) -> SampleRecord {
            switch self {
            case .anchoredQuery, .statisticsCollection, .statisticsCollectionWithUpdates:
                let start = stepsStart + stepsDays * 86_400 - Double(run + 1) * 300
                return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: Date(timeIntervalSince1970: start),
                                    endDate: Date(timeIntervalSince1970: start + 60), value: .quantity(7, unit: "count"))
            case .activitySummaries, .activitySummariesWithUpdates:
                let start = energyStart + (energyDays - 1) * 86_400 + Double(run + 1) * 1_800
                return SampleRecord(uuid: UUID(), typeIdentifier: energy, startDate: Date(timeIntervalSince1970: start),
                                    endDate: Date(timeIntervalSince1970: start + 600), value: .quantity(50, unit: "kcal"))
            }
        }

        /// Whether `payload` is the last message of a watch's delivery.
        func endsDelivery(_ payload: [UInt8]) throws -> Bool {
            switch self {
            case .statisticsCollectionWithUpdates: try StatisticsCollectionDelivery(wire: payload).endOfDelivery
            case .activitySummariesWithUpdates: try ActivitySummaryBatch(wire: payload).endOfDelivery
            default: false
            }
        }

        /// Whether a watch's update delivery holds a change.
        func holdsChange(_ delivery: [[UInt8]]) throws -> Bool {
            switch self {
            case .statisticsCollectionWithUpdates: try delivery.contains { !(try StatisticsCollectionDelivery(wire: $0).changed.isEmpty) }
            case .activitySummariesWithUpdates: try delivery.contains { !(try ActivitySummaryBatch(wire: $0).summaries.isEmpty) }
            default: false
            }
        }

        /// The part of an answer the worlds compare: a watch's initial delivery, or the whole.
        func compared(_ answer: LargeDocumentWorld.ReadAnswer) -> [[UInt8]]? {
            isWatch ? answer.delivery(0) : answer.status?.code == .ok ? answer.payloads : nil
        }

        /// A payload as compared across worlds: an anchored batch's anchor is sealed afresh with
        /// each reading (a new nonce), so it counts only as present.
        func comparable(_ payload: [UInt8]) throws -> [UInt8] {
            guard self == .anchoredQuery else { return payload }
            var batch = try AnchoredQueryBatch(wire: payload)
            if !batch.anchor.isEmpty { batch.anchor = [1] }
            return batch.wireBytes()
        }
    }

    /// Whether a third app deletes one of its own objects while the reader holds the answer up.
    enum Variant: String, CaseIterable, CustomStringConvertible {
        case twin
        case deletion
        var description: String { rawValue }
    }

    final class World: Sendable {
        let documents: LargeDocumentWorld
        var broker: BrokerProcess { documents.broker }
        /// The deleter's body-mass samples, one deleted per deletion run.
        let deletable: Mutex<[String]>
        private let runs = Mutex(0)
        private let finished = Mutex(0)

        init() async throws {
            let documents = try await LargeDocumentWorld(
                arguments: ["--stalled-peer-timeout", "600"], writer: BoundedRereadEndToEndTests.writer,
                reader: BoundedRereadEndToEndTests.reader,
                readerGrants: [("share", steps), ("read", steps), ("share", energy)])
            self.documents = documents
            let broker = documents.broker
            // The reader's own data, long samples: every minute of 10 days holds steps, every day of
            // 12,000 active energy (no read grant needed for its own).
            let client = try RPCClient.connect(path: broker.appSocket)
            defer { client.close() }
            let stepsEnd = stepsStart + stepsDays * 86_400
            let energyEnd = energyStart + energyDays * 86_400
            let long = [
                SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: Date(timeIntervalSince1970: stepsStart),
                             endDate: Date(timeIntervalSince1970: stepsEnd), value: .quantity(14_400, unit: "count")),
                SampleRecord(uuid: UUID(), typeIdentifier: energy, startDate: Date(timeIntervalSince1970: energyStart),
                             endDate: Date(timeIntervalSince1970: energyEnd), value: .quantity(12_000, unit: "kcal")),
            ]
            _ = try SavedUUIDs(wire: await client.unary(HealthStoreMethod.save.rawValue, SampleList(long).wireBytes()))
            let deleter = try await broker.installClient(BoundedRereadEndToEndTests.deleter)
            try await broker.set(deleter, "share", bodyMass, allowed: true)
            try await broker.set(deleter, "read", bodyMass, allowed: true)
            var saved: [String] = []
            for index in 0..<Answer.allCases.count {
                let result = try await broker.runApp(deleter, ["save", bodyMass, "70", "kg", "\(1_700_000_000 + index * 60)",
                                                               "\(1_700_000_000 + index * 60)"])
                guard let uuid = result.okValue else { throw CommandFailed(result: result) }
                saved.append(uuid)
            }
            deletable = Mutex(saved)
        }

        /// A number of its own for each run: where its late sample goes.
        func nextRun() -> Int {
            runs.withLock { count in
                defer { count += 1 }
                return count
            }
        }

        func caseFinished() {
            let all = finished.withLock { count in
                count += 1
                return count == Answer.allCases.count
            }
            if all { broker.stop() }
        }

        /// The answer (a watch's initial delivery) read at once, on a connection of its own.
        func read(_ answer: Answer) async throws -> LargeDocumentWorld.ReadAnswer {
            let fd = try UnixSocket.connect(path: broker.appSocket)
            defer { close(fd) }
            sendAll(FrameCodec.encode(.request(1, answer.method, answer.request)), to: fd)
            return try LargeDocumentWorld.readAnswer(fd, deliveries: answer.isWatch ? 1 : nil, endsDelivery: answer.endsDelivery)
        }

        /// The answer stalled, the late save and (`deletion`) another app's deletion while it
        /// waits, then read to the end; with how much was unread when healthd stopped writing,
        /// and the late sample's UUID (healthd mints its own).
        func stallAndRead(_ answer: Answer, _ variant: Variant, late: SampleRecord) async throws
            -> (answer: LargeDocumentWorld.ReadAnswer, unreadAtStall: Int, late: UUID, readAgain: Int) {
            let readAgainBefore = try await broker.answersReadAgain()
            let fd = try UnixSocket.connect(path: broker.appSocket)
            defer { close(fd) }
            sendAll(FrameCodec.encode(.request(1, answer.method, answer.request)), to: fd)
            let unread = try await LargeDocumentWorld.waitUntilStalled(fd)
            // The reader's own sample, over a second connection, in the part not sent yet.
            let client = try RPCClient.connect(path: broker.appSocket)
            let saved = try SavedUUIDs(wire: await client.unary(HealthStoreMethod.save.rawValue, SampleList([late]).wireBytes())).uuids
            client.close()
            let lateUUID = try #require(saved.first, "the late save answered no UUID")
            if variant == .deletion {
                let uuid = deletable.withLock { $0.removeFirst() }
                let deleted = try await broker.runApp(BoundedRereadEndToEndTests.deleter, ["delete", bodyMass, uuid])
                guard deleted.okValue == "1" else { throw CommandFailed(result: deleted) }
            }
            // A watch: its initial delivery and the update the late save woke (120 s: recomputing
            // 20,000 days took over 30 s at a load average of 30; an update that never comes is a
            // failure, not a hang).
            let read = try LargeDocumentWorld.readAnswer(fd, deliveries: answer.isWatch ? 2 : nil, endsDelivery: answer.endsDelivery)
            return (read, unread, lateUUID, try await broker.answersReadAgain() - readAgainBefore)
        }

        /// The anchored query from `anchor`: the UUIDs it adds.
        func added(after anchor: [UInt8]) async throws -> [UUID] {
            let client = try RPCClient.connect(path: broker.appSocket)
            defer { client.close() }
            var spec = AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: LargeDocumentWorld.cda),
                                                       TypePredicateSpec(typeIdentifier: steps)])
            spec.anchor = anchor
            var added: [UUID] = []
            for try await payload in client.serverStream(HealthStoreMethod.queryAnchored.rawValue, spec.wireBytes()) {
                added += try AnchoredQueryBatch(wire: payload).samples.map(\.uuid)
            }
            return added
        }
    }

    static let world = Task { try await World() }

    @Test(arguments: Answer.allCases)
    func aStalledAnswerReadAgainHoldsNothingCommittedAfterItsFirstReading(_ answer: Answer) async throws {
        let world = try await Self.world.value
        defer { world.caseFinished() }
        for variant in Variant.allCases {
            let context = "\(answer), \(variant)"
            let before = try await world.read(answer)
            let expected = try #require(answer.compared(before), "\(context): \(String(describing: before.status))")
            try #require(!expected.isEmpty, "\(context): an empty answer")
            let late = answer.lateSample(run: world.nextRun())
            let (stalled, unread, lateUUID, readAgain) = try await world.stallAndRead(answer, variant, late: late)
            print("BoundedReread \(context): \(stalled.wireBytes) bytes in \(stalled.payloads.count) messages, "
                  + "\(unread) unread at the stall, largest frame \(stalled.largestFrame)")
            if !answer.isWatch { #expect(stalled.status?.code == .ok, "\(context): \(String(describing: stalled.status))") }
            #expect(readAgain == 0, "\(context): healthd read the answer again \(readAgain) times: a deletion the reader cannot see made it stale")
            let wentOn = LargeDocumentWorld.wentOnPastStall(stalled, unreadAtStall: unread)
            #expect(wentOn,
                    "\(context): healthd sent nothing after the stall (\(stalled.wireBytes) bytes, \(unread) unread then): the case tests nothing")
            let got = try (answer.compared(stalled) ?? []).map(answer.comparable)
            let want = try expected.map(answer.comparable)
            let differing = zip(got, want).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            #expect(got.count == want.count && differing.isEmpty,
                    "\(context): the stalled answer differs from the first reading's in messages \(differing) (\(got.count) vs \(want.count))")
            if answer == .anchoredQuery {
                let holdsLate = try stalled.payloads.contains { try AnchoredQueryBatch(wire: $0).samples.contains { $0.uuid == lateUUID } }
                #expect(!holdsLate, "\(context): the stalled delivery holds the sample saved after its first reading")
                let anchor = try stalled.payloads.map { try AnchoredQueryBatch(wire: $0).anchor }.last { !$0.isEmpty } ?? []
                let next = try await world.added(after: anchor)
                #expect(next == [lateUUID], "\(context): the next delivery must hold the late sample \(lateUUID), alone: \(next)")
            }
            if answer.isWatch {
                let update = stalled.delivery(1)
                #expect(try update.map(answer.holdsChange) == true,
                        "\(context): the late sample must arrive as the next delivery: \(update.map { "\($0.count) messages" } ?? "none in 120 s")")
            }
            // The control: the late sample is in a part of the answer a fresh reading shows.
            let after = try await world.read(answer)
            #expect(try (answer.compared(after) ?? []).map(answer.comparable) != want,
                    "\(context): control — a fresh answer must hold the late sample")
        }
    }
}
