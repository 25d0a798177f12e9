import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Synchronization
import Testing
import TestSupport

/// The two stalls no suite drove before (session 16's notes): an attachment download that ends
/// midway, and a watch delivery of more than 500 entries (several messages) whose client stalls.
///
/// One healthd for the suite. An owner app stores two vision prescriptions with a 12 MB
/// attachment each; the reader — this test process, connecting directly — is allowed both by the
/// user (per object) and reads steps, of which it saved 15,000 one minute apart. A victim, a
/// separate sandboxed process, must be served meanwhile (its save and its own watch,
/// `ServedVictim`), the user must be able to lock and unlock, and healthd's memory must stay
/// bounded. healthd's stall timeouts are at 10 minutes, so every stall lasts its whole case.
///
/// About 40 s in all, most of it the owner's two 12 MB round trips through the SDK.
@Suite(.timeLimit(.minutes(10)), .serialized) struct StalledDeliveryEndToEndTests {
    static let owner = "org.test.download-owner"
    static let reader = "org.test.download-reader"
    static let victim = "org.test.download-victim"
    static let vision = HKVisionPrescriptionTypeIdentifier
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let attachmentBytes = 12_000_000
    /// All of the reader's connections (`BrokerLimits.connectionsPerApp`, 16) but the one it
    /// keeps for its own calls.
    static let connections = 15
    /// Steps one minute apart, hence intervals in the watch's delivery: 30 messages of 500, about
    /// 350 kB — beyond the ~210 kB the kernel holds for a client that does not read.
    static let intervals = 15_000
    static let residentBoundKiB = 512 << 10
    /// Where the reader's 15,000 minutes of steps begin: recent enough that the victim's saves
    /// (now) extend the collection by a few intervals only — from 2023, the span reached 1.6
    /// million minutes and the watch was refused (`StatisticsLimits.maxIntervals`).
    static let intervalStart = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60
                                    - Double(intervals + 60) * 60)

    struct Stored: Sendable {
        let object: UUID
        let attachment: UUID
        var request: [UInt8] {
            AttachmentRequest(object: AttachmentObjectRef(uuid: object, typeIdentifier: vision), attachmentID: attachment).wireBytes()
        }
    }

    final class World: Sendable {
        let broker: BrokerProcess
        let victim: ProbeClientSession
        let reader: RawApp
        /// The first is revoked midway, the second deleted midway (the last cases).
        let stored: [Stored]
        private let finished = Mutex(0)

        init() async throws {
            let broker = try BrokerProcess(extraArguments: ["--stalled-peer-timeout", "600", "--large-queries-running", "1"])
            self.broker = broker
            _ = try await broker.installClient(owner)
            try await broker.set(owner, "share", vision, allowed: true)
            var stored: [Stored] = []
            for _ in 0..<2 {
                let saved = try await broker.runApp(owner, ["attachment-snippet", "round-trip", "\(attachmentBytes)"], timeout: 300)
                func printed(_ word: String) -> UUID? {
                    saved.lines.last { $0.hasPrefix(word + " ") }.flatMap { UUID(uuidString: String($0.dropFirst(word.count + 1))) }
                }
                stored.append(Stored(object: try #require(printed("object"), "\(saved)"), attachment: try #require(printed("attachment"), "\(saved)")))
            }
            self.stored = stored
            reader = try await RawApp.install(StalledDeliveryEndToEndTests.reader, on: broker, grants: [("share", steps), ("read", steps)])
            // The user allows the reader both prescriptions, asked for by its per-object request.
            async let asked = broker.runApp(StalledDeliveryEndToEndTests.reader, ["snippet", "vision-per-object"])
            let listing = try await broker.pendingObjectRequests()
            let lines = listing.split(separator: "\n").map(String.init)
            let requestID = lines.first { $0.hasPrefix("Request ") }.flatMap { $0.dropFirst("Request ".count).split(separator: ":").first }
            let answered = try await broker.healthctl(["object-requests", "--answer", String(try #require(requestID, "\(listing)")),
                                                       "--allow", stored.map { $0.object.uuidString }.joined(separator: ",")])
            try #require(answered.status == 0, "\(answered)")
            let seen = try await asked.okValue
            #expect(seen?.hasPrefix("2 ") == true, "the reader sees \(String(describing: seen))")
            // 15,000 steps one minute apart: a statistics collection of as many intervals.
            let samples = (0..<intervals).map { minute in
                let start = intervalStart.addingTimeInterval(Double(minute) * 60)
                return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(30),
                                    value: .quantity(1, unit: "count"))
            }
            for part in stride(from: 0, to: intervals, by: 10_000) {  // at most 10,000 a save
                #expect(try await reader.save(Array(samples[part..<min(part + 10_000, intervals)])).count == min(10_000, intervals - part))
            }
            victim = try await ServedVictim.start(StalledDeliveryEndToEndTests.victim, on: broker)
        }

        func caseFinished() {
            let all = finished.withLock { count in
                count += 1
                return count == Ending.allCases.count + Reading.allCases.count
            }
            if all { broker.stop() }
        }
    }

    static let world = Task { try await World() }

    /// One attacker connection, read by hand as the case says.
    final class RawStream: Sendable {
        let fd: Int32
        private let state = Mutex<(reader: FrameReader, rawBytes: Int, dataBytes: Int, ending: RPCStatus?)>((FrameReader(), 0, 0, nil))
        private let stopped = Atomic<Bool>(false)

        init(_ broker: BrokerProcess, _ method: HealthStoreMethod, _ payload: [UInt8]) throws {
            fd = try UnixSocket.connect(path: broker.appSocket)
            _ = RawFrames.pipeline([(method.rawValue, payload)], to: fd)
        }

        /// Reads until at least `count` bytes came in, or the stream ended, or `seconds` passed;
        /// returns the bytes read in all.
        @discardableResult
        func read(atLeast count: Int, within seconds: TimeInterval = 120) -> Int {
            let until = Date().addingTimeInterval(seconds)
            while state.withLock({ $0.rawBytes < count && $0.ending == nil }), Date() < until { readOnce(timeoutMilliseconds: 200) }
            return state.withLock { $0.rawBytes }
        }

        /// Reads until the call ends (hang guard 120 s); its final status and the attachment bytes received.
        func readToEnd() -> (status: RPCStatus?, dataBytes: Int) {
            let until = Date().addingTimeInterval(120)
            while state.withLock({ $0.ending == nil }), Date() < until { readOnce(timeoutMilliseconds: 200) }
            return state.withLock { ($0.ending, $0.dataBytes) }
        }

        private func readOnce(timeoutMilliseconds: Int32) {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, timeoutMilliseconds) > 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else {
                if count == 0 { state.withLock { $0.ending = $0.ending ?? RPCStatus(.unavailable, "connection closed") } }
                return
            }
            state.withLock { state in
                state.rawBytes += count
                guard let bodies = try? state.reader.consume(buffer[0..<count]) else { return }
                for body in bodies {
                    guard let frame = try? FrameCodec.decode(body) else { continue }
                    if frame.kind == .streamMessage, let chunk = try? AttachmentDataChunk(wire: frame.payload) {
                        state.dataBytes += chunk.data.count
                    }
                    if frame.kind == .endOfStream || frame.kind == .response { state.ending = frame.status ?? .ok }
                }
            }
        }

        /// A thread reads one byte a second until `stop`.
        func readSlowly() {
            let own = dup(fd)
            Thread { [self] in
                var byte: UInt8 = 0
                while !stopped.load(ordering: .relaxed), recv(own, &byte, 1, 0) == 1 { sleep(1) }
                close(own)
            }.start()
        }

        var isStopped: Bool { stopped.load(ordering: .relaxed) }

        /// Closes the connection (once).
        func stop() {
            guard !stopped.exchange(true, ordering: .relaxed) else { return }
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    /// How a download ends, or does not.
    enum Ending: String, CaseIterable, CustomStringConvertible {
        /// 15 downloads, never read.
        case neverRead
        /// 15 downloads, one byte a second each.
        case readSlowly
        /// 15 downloads closed after 300 kB.
        case closedMidway
        /// One download stops after 300 kB; the user revokes the reader's grant to the object.
        case revokedMidway
        /// One download stops after 300 kB; the user deletes the object.
        case deletedMidway
        var description: String { rawValue }
    }

    /// What the victim and the user must still get while `streams` hold their stall.
    static func othersAreServed(_ world: World, _ streams: [RawStream], _ context: String,
                                beforeTheLock: () async throws -> Void = {}) async throws {
        let took = try await ServedVictim.isServed(world.victim, context)
        try await beforeTheLock()
        let lock = try await world.broker.healthctl(["lock"])
        #expect(lock.status == 0, "\(context): the lock waited for the stalled call: \(lock)")
        if lock.status == 0 { #expect(try await world.broker.healthctl(["unlock"]).status == 0) }
        let resident = ServedVictim.residentKiB(of: world.broker)
        print("StalledDelivery \(context): victim's save and watch \(took), healthd resident \(resident >> 10) MiB")
        #expect(resident < residentBoundKiB, "\(context): healthd holds \(resident >> 10) MiB")
        #expect(world.broker.isRunning, "healthd died: \(world.broker.log)")
    }

    @Test(arguments: Ending.allCases)
    func aDownloadThatStallsOrEndsMidwayCostsOthersNothing(_ ending: Ending) async throws {
        let world = try await Self.world.value
        defer { world.caseFinished() }
        let broker = world.broker
        switch ending {
        case .neverRead, .readSlowly, .closedMidway:
            let streams = try (0..<Self.connections).map { _ in
                try RawStream(broker, .readAttachmentData, world.stored[0].request)
            }
            defer { for stream in streams { stream.stop() } }
            // The app's downloads run one at a time, in an order of healthd's: any one answered.
            try #require(try await Self.waitForReplies(on: streams), "healthd never answered a download")
            if ending == .readSlowly { for stream in streams { stream.readSlowly() } }
            if ending == .closedMidway {
                // Each as healthd serves it (the app's downloads run one at a time): 300 kB, then gone.
                var open = streams
                let until = Date().addingTimeInterval(120)
                while !open.isEmpty, Date() < until {
                    for stream in open {
                        var unread: Int32 = 0
                        guard ioctl(stream.fd, UInt(FIONREAD), &unread) == 0, unread > 0 else { continue }
                        stream.read(atLeast: 300_000)
                        stream.stop()
                    }
                    open.removeAll { $0.isStopped }
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(open.isEmpty, "\(open.count) downloads were never served")
            }
            try await Self.othersAreServed(world, streams, "\(ending)")
            if ending == .closedMidway {
                // Nothing of the closed downloads is left holding the app's slot: a whole one runs.
                var received = 0
                for try await message in world.reader.client.serverStream(HealthStoreMethod.readAttachmentData.rawValue,
                                                                          world.stored[0].request) {
                    received += try AttachmentDataChunk(wire: message).data.count
                }
                #expect(received == Self.attachmentBytes)
            }
        case .revokedMidway, .deletedMidway:
            let target = world.stored[ending == .revokedMidway ? 0 : 1]
            let stream = try RawStream(broker, .readAttachmentData, target.request)
            defer { stream.stop() }
            stream.read(atLeast: 300_000)
            let change = ending == .revokedMidway
                ? try await broker.healthctl(["object-grants", Self.reader, "--revoke", target.object.uuidString])
                : try await broker.healthctl(["delete", target.object.uuidString, "--yes"])
            try #require(change.status == 0, "\(change)")
            // Read on: what was already in the kernel and the one chunk begun may arrive; the
            // rest of the 12 MB must not, and the call ends as for a missing attachment.
            let (status, received) = stream.readToEnd()
            #expect(status?.healthKitCode == .errorNoData, "\(ending): \(String(describing: status))")
            #expect(received < Self.attachmentBytes / 4, "\(ending): \(received) bytes arrived after the object was lost")
            print("StalledDelivery \(ending): \(received) attachment bytes in all, ended \(String(describing: status))")
            try await Self.othersAreServed(world, [stream], "\(ending)")
        }
    }

    /// Waits (hang guard 120 s) until replies wait unread on one of `streams`.
    static func waitForReplies(on streams: [RawStream]) async throws -> Bool {
        let until = Date().addingTimeInterval(120)
        while Date() < until {
            for stream in streams {
                var unread: Int32 = 0
                if ioctl(stream.fd, UInt(FIONREAD), &unread) == 0, unread > 0 { return true }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    enum Reading: String, CaseIterable, CustomStringConvertible {
        case never
        case slowly
        var description: String { rawValue }
    }

    /// A statistics-collection watch whose delivery is 15,000 intervals (30 messages of 500),
    /// on each of the reader's 15 spare connections, left unread or read a byte a second.
    @Test(arguments: Reading.allCases)
    func aWatchDeliveryOfManyMessagesStalledCostsOthersNothing(_ reading: Reading) async throws {
        let world = try await Self.world.value
        defer { world.caseFinished() }
        let spec = StatisticsCollectionSpec(statistics: StatisticsQuerySpec(typeIdentifier: Self.steps, options: .cumulativeSum),
                                            anchor: Self.intervalStart, interval: StatisticsInterval(minutes: 1), timeZoneIdentifier: "UTC")
        let streams = try (0..<Self.connections).map { _ in
            try RawStream(world.broker, .watchStatisticsCollection, spec.wireBytes())
        }
        defer { for stream in streams { stream.stop() } }
        try #require(try await AppBudgetEndToEndTests.waitForReplies(streams[0].fd), "healthd never answered the watch")
        if reading == .slowly { for stream in streams { stream.readSlowly() } }
        try await Self.othersAreServed(world, streams, "watch of \(Self.intervals) intervals, \(reading)") {
            // The delivery is larger than what the kernel holds for the stalled client, so the
            // stall held healthd's side too (else this case would test nothing): one client reads
            // on, before the lock ends the watches, and gets more than a socket and a message.
            guard reading == .never else { return }
            var queued: Int32 = 0
            _ = ioctl(streams[0].fd, UInt(FIONREAD), &queued)
            let received = streams[0].read(atLeast: 300_000, within: 30)
            #expect(received >= 300_000, "the watch's delivery: \(received) bytes, \(queued) of them waiting in the socket")
            print("StalledDelivery watch: \(queued) bytes waited in the socket, \(received) read on")
        }
    }
}
