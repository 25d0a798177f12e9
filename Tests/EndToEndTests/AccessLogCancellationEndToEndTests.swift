import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// DESIGN.md §7.9, "every access is recorded", when the call that read is cancelled: an app that
/// received data and then leaves mid-read — exits, stops its queries, is SIGKILLed, or has its
/// long-running queries ended by a lock — still has an entry in the hash-chained access log for
/// every delivery it received, with a count covering it, and no entry falls back to healthd's
/// own log ("access log entry not stored", which is outside the chain).
///
/// Before the fix, a long-running query's entry was written from its cancelled call and took a
/// query slot of the app's like any of its store visits (`ScheduledStoreVisits`): with the slot
/// busy — the app's large query streaming, or another of its long-running queries ending at the
/// same moment — the wait for it threw `CancellationError` and the entry went to healthd's log.
///
/// The app is the scripted test app (`read-then-leave`, a separate, sandboxed process): an
/// observer query, a long-running anchored query and a statistics collection with updates, each
/// of its own type, then a sample query of 10,000 samples run to its end; then, after the first
/// update or at once, the same sample query again, and after a generated delay it leaves while
/// all of them are open. One healthd per way of leaving, a fresh app id per run.
///
/// A watch delivery of several messages is counted once its first message leaves: the app — this
/// process on a raw connection — reads the first messages of a statistics-collection or
/// activity-summary update that healthd cannot hand over at once, and closes its connection.
@Suite(.timeLimit(.minutes(10)), .serialized) struct AccessLogCancellationEndToEndTests {
    static let observed = HKQuantityTypeIdentifier.heartRate.rawValue
    static let anchored = HKQuantityTypeIdentifier.respiratoryRate.rawValue
    static let collected = HKQuantityTypeIdentifier.stepCount.rawValue
    static let queried = HKQuantityTypeIdentifier.distanceWalkingRunning.rawValue
    static let querySamples = 10_000
    static let writer = "org.test.cancel-writer"
    static let unstored = "access log entry not stored"

    enum Leave: String, CaseIterable, CustomStringConvertible, Sendable {
        /// The app exits (`exit(0)`) with every query open.
        case exit
        /// The app stops every query (a CANCEL each) and stays connected.
        case stop
        /// The test SIGKILLs the app.
        case kill
        /// The user locks the store, which ends every long-running query (DESIGN.md §7.8); the
        /// entries are journaled and merged at unlock.
        case lock
        var description: String { rawValue }
    }

    /// When the app leaves: right after its initial deliveries and first sample query, or after
    /// the first update of a long-running query; and how long after (ms).
    struct Run: Sendable, CustomStringConvertible {
        let trigger: String
        let afterMilliseconds: Int
        var description: String { "on \(trigger) +\(afterMilliseconds) ms" }
    }

    /// Three delays per trigger: none, a few ms (the second sample query just sent), tens of ms
    /// (it is streaming). Generated from a fixed seed per way of leaving, so a failure repeats.
    static func runs(for leave: Leave) -> [Run] {
        var generator = SplitMix64(seed: 0xACCE_5510 + UInt64(Leave.allCases.firstIndex(of: leave) ?? 0))
        return ["ready", "update"].flatMap { trigger in
            [0, Int.random(in: 1...15, using: &generator), Int.random(in: 20...120, using: &generator)]
                .map { Run(trigger: trigger, afterMilliseconds: $0) }
        }
    }

    @Test(arguments: Leave.allCases) func everyDeliveryAnAppReceivedIsLoggedHoweverItLeaves(_ leave: Leave) async throws {
        let broker = try BrokerProcess()
        let types = [Self.observed, Self.anchored, Self.collected, Self.queried]
        let writer = try await RawApp.install(Self.writer, on: broker, grants: types.map { ("share", $0) })
        defer { writer.close() }
        try await storeWorld(writer)

        for (index, run) in Self.runs(for: leave).enumerated() {
            let appID = "org.test.leaver-\(leave)-\(index)"
            try await broker.installClient(appID)
            for type in types { try await broker.set(appID, "read", type, allowed: true) }
            let unstoredBefore = unstoredLines(broker).count
            let app = try LiveApp(appID, ["read-then-leave", "--observe", Self.observed, "--anchored", Self.anchored,
                                          "--collection", Self.collected, "--query", Self.queried, "--on", run.trigger,
                                          "--after-ms", String(run.afterMilliseconds),
                                          "--leave", leave == .exit ? "exit" : leave == .stop ? "stop" : "stay"],
                                  adminSocket: broker.adminSocket)
            try #require(try await app.waitForLine("ready"), "\(leave), \(run): the app never got its initial deliveries: \(app.lines)")
            if run.trigger == "update" { _ = try await writer.save(updateSamples()) }
            switch leave {
            case .exit:
                _ = await app.finish(timeout: 120)
            case .stop:
                try #require(try await app.waitForLine("stopped"), "\(leave), \(run): \(app.lines)")
            case .kill:
                try #require(try await app.waitForLine("leaving"), "\(leave), \(run): \(app.lines)")
                app.kill()
                _ = await app.finish(timeout: 120)
            case .lock:
                try #require(try await app.waitForLine("leaving"), "\(leave), \(run): \(app.lines)")
                #expect(try await broker.healthctl(["lock"]).status == 0)
                // Every long-running query ends with errorDatabaseInaccessible; the app exits on the
                // first (killed if it has not within 30 s).
                _ = await app.finish(timeout: 30)
                #expect(try await broker.healthctl(["unlock"]).status == 0)
            }
            let received = Received(app.lines)
            let outcome = try await waitForEntries(covering: received, appID: appID, broker: broker, unstoredBefore: unstoredBefore)
            #expect(outcome.unstored.isEmpty,
                    "\(leave), \(run): entries left out of the access log: \(outcome.unstored)\napp: \(app.lines)")
            #expect(outcome.missing.isEmpty,
                    "\(leave), \(run): \(outcome.missing)\nlog: \(outcome.log)\napp: \(app.lines)")
            if leave == .stop {
                app.kill()
                _ = await app.finish(timeout: 120)
            }
        }
        #expect(try await broker.healthctl(["log", "verify"]).status == 0)
    }

    /// A watch whose update is too large for the socket, one sample per entry: a statistics
    /// collection of 10,000 changed minutes (each interval with its sum, most recent value and
    /// duration), or the activity summaries of 10,000 changed days: 20 messages either way, more
    /// than the ~207 kB a socket holds for a client that does not read.
    enum CutWatch: String, CaseIterable, CustomStringConvertible, Sendable {
        case collection, summaries
        var description: String { rawValue }
        static let energy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue

        var sampleType: String { self == .collection ? AccessLogCancellationEndToEndTests.collected : Self.energy }
        var loggedType: String {
            self == .collection ? AccessLogCancellationEndToEndTests.collected : HKObjectType.activitySummaryType().identifier
        }

        func request(from start: Date) -> (String, [UInt8]) {
            switch self {
            case .collection:
                (HealthStoreMethod.watchStatisticsCollection.rawValue, StatisticsCollectionSpec(
                    statistics: StatisticsQuerySpec(typeIdentifier: sampleType, options: [.cumulativeSum, .mostRecent, .duration]),
                    anchor: start, interval: StatisticsInterval(minutes: 1), timeZoneIdentifier: "UTC").wireBytes())
            case .summaries:
                (HealthStoreMethod.watchActivitySummaries.rawValue, ActivitySummaryQuerySpec(timeZoneIdentifier: "UTC").wireBytes())
            }
        }

        /// One sample in each of the entries the update will change, all before now.
        func update(from start: Date) -> [SampleRecord] {
            switch self {
            case .collection:
                (0..<10_000).map { minute in
                    let at = start.addingTimeInterval(Double(minute) * 60)
                    return SampleRecord(uuid: UUID(), typeIdentifier: sampleType, startDate: at, endDate: at.addingTimeInterval(30),
                                        value: .quantity(1, unit: "count"))
                }
            case .summaries:
                (0..<10_000).map { day in
                    let at = start.addingTimeInterval(Double(day) * 86_400 + 43_200)
                    return SampleRecord(uuid: UUID(), typeIdentifier: sampleType, startDate: at, endDate: at.addingTimeInterval(600),
                                        value: .quantity(10, unit: "kcal"))
                }
            }
        }

        /// Where the samples begin: 10,000 minutes (and an hour) or 10,000 days (and a day) before now.
        var start: Date {
            let now = Date().timeIntervalSince1970
            return switch self {
            case .collection: Date(timeIntervalSince1970: (now / 60).rounded(.down) * 60 - Double(10_000 + 60) * 60)
            case .summaries: Date(timeIntervalSince1970: (now / 86_400).rounded(.down) * 86_400 - Double(10_000 + 1) * 86_400)
            }
        }

        /// The messages of the update: 10,000 entries, 500 a message.
        var messages: Int { 10_000 / 500 }

        /// A message's entries and whether it ends its delivery.
        func decode(_ payload: [UInt8]) throws -> (entries: Int, end: Bool) {
            switch self {
            case .collection:
                let delivery = try StatisticsCollectionDelivery(wire: payload)
                return (delivery.changed.count, delivery.endOfDelivery)
            case .summaries:
                let batch = try ActivitySummaryBatch(wire: payload)
                return (batch.summaries.count, batch.endOfDelivery)
            }
        }
    }

    /// A watch update too large for the socket (`CutWatch`): once healthd waits for room, the app
    /// reads the update's first message and closes its connection, the delivery unfinished. The
    /// call's entry counts at least the samples of the entries the app received. Before, a watch's
    /// update was counted once its last message had left, so this entry counted none of them.
    @Test(arguments: CutWatch.allCases) func aWatchDeliveryCutShortByTheAppLeavingIsCounted(_ watch: CutWatch) async throws {
        let broker = try BrokerProcess()
        let appID = "org.test.cut-watch"
        let writer = try await RawApp.install(appID, on: broker, grants: [("share", watch.sampleType), ("read", watch.sampleType)])
        defer { writer.close() }
        let start = watch.start
        let fd = try UnixSocket.connect(path: broker.appSocket)
        var closed = false
        defer { if !closed { close(fd) } }
        try #require(RawFrames.pipeline([watch.request(from: start)], to: fd))
        var reader = FrameReader()
        let initial = try readMessages(fd, &reader, watch)
        try #require(initial.last?.end == true, "no initial delivery: \(initial)")

        _ = try await writer.save(watch.update(from: start))
        // healthd hands the update over until the socket is full; then its call waits for the app.
        var queued: Int32 = -1
        var stableSince = Date()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            var now: Int32 = 0
            _ = ioctl(fd, UInt(FIONREAD), &now)
            if now != queued { (queued, stableSince) = (now, Date()) }
            if queued > 0, Date().timeIntervalSince(stableSince) > 1 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        // What healthd has handed over, looked at without taking it (MSG_PEEK: taking it would
        // make room for the rest): its first messages, none ending the delivery. The app then
        // reads the first message alone — healthd can hand over one more at most, so the
        // delivery stays unfinished — and leaves.
        var peeked = [UInt8](repeating: 0, count: Int(max(queued, 0)))
        let peekedCount = recv(fd, &peeked, peeked.count, Int32(MSG_PEEK | MSG_DONTWAIT))
        var peekReader = FrameReader()
        let handed = try peekReader.consume(peeked[0..<max(peekedCount, 0)]).map { try FrameCodec.decode($0) }
            .filter { $0.kind == .streamMessage }.map { try watch.decode($0.payload) }
        try #require(!handed.isEmpty && !handed.contains(where: \.end) && handed.count + 1 < watch.messages,
                     "\(watch): healthd handed over \(handed.count) of \(watch.messages) messages (\(queued) bytes) and would not wait")
        let first = try readMessages(fd, &reader, watch, untilEnd: false, bytes: 4 + Int(firstFrameLength(peeked)))
        close(fd)
        closed = true
        let entries = first.reduce(0) { $0 + $1.entries }
        print("AccessLogCancellation cut \(watch): \(handed.count) of \(watch.messages) messages handed over (\(queued) bytes), "
              + "the app read \(first.count) (\(entries) entries)")
        try #require(first.count == 1 && !first[0].end)

        let deadlineForEntry = Date().addingTimeInterval(60)
        var logged: [LoggedEntry] = []
        while Date() < deadlineForEntry {
            let listed = try await broker.healthctl(["log", "--app", appID, "--json"])
            logged = try listed.stdout.split(separator: "\n").map { try JSONDecoder().decode(LoggedEntry.self, from: Data($0.utf8)) }
                .filter { $0.action == "read" && $0.types == [watch.loggedType] }
            if !logged.isEmpty { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let entry = try #require(logged.first, "the watch's read is not in the access log")
        #expect(entry.count >= entries,
                "the entry counts \(entry.count) samples; the app received \(entries) entries of one sample each")
        #expect(unstoredLines(broker).isEmpty, "\(unstoredLines(broker))")
    }

    /// The length of the frame `bytes` begin with (its 4-byte big-endian prefix).
    private func firstFrameLength(_ bytes: [UInt8]) -> UInt32 {
        bytes.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The watch's messages read from `fd` until one ends a delivery (`untilEnd`, at most 60 s), or
    /// in its next `bytes` bytes (complete messages only).
    private func readMessages(_ fd: Int32, _ reader: inout FrameReader, _ watch: CutWatch, untilEnd: Bool = true,
                              bytes limit: Int = .max) throws -> [(entries: Int, end: Bool)] {
        var messages: [(entries: Int, end: Bool)] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var left = limit
        let deadline = Date().addingTimeInterval(60)
        while left > 0, Date() < deadline {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            let count = recv(fd, &buffer, min(buffer.count, left), Int32(MSG_DONTWAIT))
            if count < 0, errno == EAGAIN || errno == EINTR { continue }
            guard count > 0 else { break }
            left -= count
            for body in try reader.consume(buffer[0..<count]) {
                let frame = try FrameCodec.decode(body)
                guard frame.kind == .streamMessage else { continue }
                let message = try watch.decode(frame.payload)
                messages.append(message)
                if untilEnd, message.end { return messages }
            }
        }
        return messages
    }

    /// 20 samples of each long-running query's type and `querySamples` of the sample query's,
    /// one second apart, before now; every value 1 (the collection's sum is its sample count).
    private func storeWorld(_ writer: RawApp) async throws {
        let start = Date().timeIntervalSince1970.rounded(.down) - Double(Self.querySamples) - 3_600
        func samples(_ type: String, _ unit: String, count: Int, offset: Double) -> [SampleRecord] {
            (0..<count).map { index in
                let at = Date(timeIntervalSince1970: start + offset + Double(index))
                return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: at, endDate: at, value: .quantity(1, unit: unit))
            }
        }
        _ = try await writer.save(samples(Self.observed, "count/min", count: 20, offset: 0)
                                  + samples(Self.anchored, "count/min", count: 20, offset: 0)
                                  + samples(Self.collected, "count", count: 20, offset: 0))
        let distances = samples(Self.queried, "m", count: Self.querySamples, offset: 0)
        for batch in stride(from: 0, to: distances.count, by: 2_500) {
            _ = try await writer.save(Array(distances[batch..<min(batch + 2_500, distances.count)]))
        }
    }

    /// One new sample of each long-running query's type, now: an update for each.
    private func updateSamples() -> [SampleRecord] {
        let at = Date()
        return [(Self.observed, "count/min"), (Self.anchored, "count/min"), (Self.collected, "count")].map { type, unit in
            SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: at, endDate: at, value: .quantity(1, unit: unit))
        }
    }

    /// What the app printed it received.
    struct Received: CustomStringConvertible {
        var observerCalls = 0
        var anchoredAdded = 0
        var collectionInitialSum = 0
        var collectionUpdates = 0
        var querySamples = 0

        init(_ lines: [String]) {
            for line in lines {
                let fields = line.split(separator: " ").map(String.init)
                guard fields.first == "got", fields.count >= 2 else { continue }
                let number = fields.last.flatMap(Int.init) ?? 0
                switch (fields[1], fields.count > 2 ? fields[2] : "") {
                case ("observer", _): observerCalls += 1
                case ("anchored", _): anchoredAdded += number
                case ("collection", "initial"): collectionInitialSum = number
                case ("collection", _): collectionUpdates += 1
                case ("query", _): querySamples += number
                default: continue
                }
            }
        }

        /// The least count the entries of each type must add up to: the samples the app was sent
        /// (the observer: its updates; its first call is the query's start; a collection update,
        /// at least the one sample that changed it).
        var leastCounts: [String: Int] {
            [AccessLogCancellationEndToEndTests.observed: max(0, observerCalls - 1),
             AccessLogCancellationEndToEndTests.anchored: anchoredAdded,
             AccessLogCancellationEndToEndTests.collected: collectionInitialSum + (collectionUpdates > 0 ? 1 : 0),
             AccessLogCancellationEndToEndTests.queried: querySamples]
        }

        var description: String {
            "observer \(observerCalls) calls, anchored \(anchoredAdded) added, "
                + "collection \(collectionInitialSum) + \(collectionUpdates) updates, query \(querySamples)"
        }
    }

    /// healthd's log lines about entries it could not store in the access log.
    private func unstoredLines(_ broker: BrokerProcess) -> [String] {
        broker.log.split(separator: "\n").filter { $0.contains(Self.unstored) }.map(String.init)
    }

    /// One line of `healthctl log --json`.
    struct LoggedEntry: Decodable {
        let action: String
        let types: [String]
        let count: Int
        let detail: String
    }

    struct Outcome {
        var missing: [String]
        var unstored: [String]
        var log: String
    }

    /// Polls the app's access-log entries until each type's `read` entries add up to what the app
    /// received, healthd reports an entry it could not store, or 60 s pass.
    private func waitForEntries(covering received: Received, appID: String, broker: BrokerProcess,
                                unstoredBefore: Int) async throws -> Outcome {
        let deadline = Date().addingTimeInterval(60)
        while true {
            let listed = try await broker.healthctl(["log", "--app", appID, "--json"])
            let entries = try listed.stdout.split(separator: "\n").map { try JSONDecoder().decode(LoggedEntry.self, from: Data($0.utf8)) }
            var missing: [String] = []
            for (type, least) in received.leastCounts.sorted(by: { $0.key < $1.key }) {
                let reads = entries.filter { $0.action == "read" && $0.types.contains(type) }
                let logged = reads.reduce(0) { $0 + $1.count }
                // A query the app received data from has an entry, even one with nothing to count.
                let wasOpened = type != Self.queried || received.querySamples > 0
                if (wasOpened && reads.isEmpty) || logged < least {
                    missing.append("\(type): \(reads.count) read entries counting \(logged), the app received \(least) (\(received))")
                }
            }
            let unstored = Array(unstoredLines(broker).dropFirst(unstoredBefore))
            if missing.isEmpty || !unstored.isEmpty || Date() > deadline {
                return Outcome(missing: missing, unstored: unstored, log: listed.stdout)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
