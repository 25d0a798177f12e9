import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Synchronization
import Testing
import TestSupport

/// healthd's memory under an app that sends maximal (4 MiB) requests as fast as it can on all
/// of its connections (`BrokerLimits.bufferedBytes`, `BufferBudget`). The test process is the
/// hostile app (installed, connecting directly); a second, well-behaved app — `e2e-client`, a
/// separate sandboxed process — saves and queries meanwhile and must be answered, and healthd's
/// peak resident memory (VmHWM) must stay under a stated bound. The flood goes on until the
/// victim was answered, so its calls really run beside it.
@Suite(.timeLimit(.minutes(10)), .serialized) struct BrokerMemoryBoundEndToEndTests {
    static let hostile = "org.test.hostile"
    static let victim = "org.test.victim"
    static let stepCount = HKQuantityTypeIdentifier.stepCount.rawValue

    /// The bound asserted on healthd's peak resident memory, in MiB. With the buffer bound the
    /// hostile app has at most its 32 MiB share of requests read at once (each also copied and
    /// decoded — the decoded samples take several times their wire size) beside healthd's own
    /// 40 MiB: 284–376 MiB over 30 runs on two loaded cores (269 MiB while readers could stall
    /// holding a frame, which kept fewer of the share's frames decoding at once). Without it (the same flood with
    /// `--app-buffer-share-mib 4096`, before the reader gave large buffers back) every
    /// connection kept reading 4 MiB frames, refused only once read, and the peak was 820 MiB.
    /// Since session 12 a request counts 4 bytes per frame byte, so the share holds 2 of these
    /// frames instead of 8: 261 MiB in one run.
    /// A bound with a wide margin either side (a machine with more cores decodes more of the
    /// share at once) — not a timing.
    static let peakBoundMiB = 512

    /// A save of steps samples padded with metadata to just under the frame limit. The hostile
    /// app was granted nothing, so healthd reads and decodes each one and then refuses it: the
    /// fastest a peer can make healthd take in 4 MiB frames.
    static let maximalSave: [UInt8] = {
        let pad = String(repeating: "x", count: 400)
        func record() -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: stepCount, startDate: Date(timeIntervalSince1970: 1_700_000_000),
                         endDate: Date(timeIntervalSince1970: 1_700_000_060), value: .quantity(10, unit: "count"),
                         metadata: ["pad": .string(pad)])
        }
        let one = SampleList([record()]).wireBytes().count
        let count = min(WireLimits.maxSamplesPerSave, (WireLimits.maxFrameBytes - 1_024) / one)
        return SampleList((0..<count).map { _ in record() }).wireBytes()
    }()

    /// healthd's peak and current resident memory, in KiB (`/proc/PID/status`).
    static func memory(of pid: Int32) -> (peak: Int, current: Int)? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first }
                .flatMap { Int($0) }
        }
        guard let peak = field("VmHWM"), let current = field("VmRSS") else { return nil }
        return (peak, current)
    }

    @Test func maximalRequestsOnEveryConnectionOfOneAppStayWithinTheBound() async throws {
        let frame = FrameCodec.encode(.request(1, HealthStoreMethod.save.rawValue, Self.maximalSave))
        try #require(frame.count > WireLimits.maxFrameBytes - 64 * 1_024 && frame.count <= WireLimits.maxFrameBytes + 4)
        let broker = try BrokerProcess()
        // The hostile app is granted nothing: each save is read and decoded, then refused.
        try await broker.install(appID: Self.hostile, executable: Products.testProcessExecutable)
        try await broker.allowDirect(Self.hostile)
        try await broker.installClient(Self.victim)
        try await broker.set(Self.victim, "share", Self.stepCount, allowed: true)
        try await broker.set(Self.victim, "read", Self.stepCount, allowed: true)
        let before = try #require(Self.memory(of: broker.pid))

        let flood = Flood()
        var sockets: [Int32] = []
        // Closed before healthd stops, which would otherwise wait out its writers' send timeout.
        defer { flood.stop(); for fd in sockets { close(fd) }; withExtendedLifetime(broker) {} }
        for _ in 0..<16 {  // BrokerLimits.connectionsPerApp
            let fd = try UnixSocket.connect(path: broker.appSocket)
            sockets.append(fd)
            flood.run(on: fd, method: HealthStoreMethod.save.rawValue, payload: Self.maximalSave)
        }
        // The flood is under way before the victim starts: healthd has answered some of it.
        let until = Date().addingTimeInterval(120)
        while flood.answered < 16, Date() < until { try await Task.sleep(for: .milliseconds(20)) }
        try #require(flood.answered >= 16, "healthd answered \(flood.answered) of the flood's calls")

        // Hang guards, not speed checks.
        let saved = try await broker.runApp(Self.victim, ["save", Self.stepCount, "5", "count", "1700000000", "1700000060"], timeout: 240)
        #expect(saved.okValue != nil, "the victim's save failed beside the flood: \(saved)")
        let queried = try await broker.runApp(Self.victim, ["query", Self.stepCount], timeout: 240)
        #expect(queried.stdout.contains("ok 1"), "the victim's query failed beside the flood: \(queried)")
        let answeredDuringVictim = flood.answered
        flood.stop()

        let after = try #require(Self.memory(of: broker.pid), "healthd is gone: \(broker.log)")
        print("healthd memory: before \(before.current / 1_024) MiB; peak under the flood \(after.peak / 1_024) MiB; "
              + "flood calls answered \(answeredDuringVictim), frame \(frame.count) bytes")
        #expect(after.peak / 1_024 < Self.peakBoundMiB,
                "healthd's peak resident memory \(after.peak / 1_024) MiB passed \(Self.peakBoundMiB) MiB")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }
}

/// Session 12: unpacking, not the frames, was what healthd's memory paid for. protobuf-c makes a
/// struct of full size for every nested message however few bytes encode it, so a 4 MiB save of
/// empty samples took 432 MiB unpacked (108×), and the buffer bound counted 4 MiB. Several apps,
/// each a separate sandboxed process flooding its launch-bound connection with the densest
/// requests, beside the test process flooding all 16 of its connections: healthd's peak RSS
/// must stay under a stated ceiling and a sandboxed bystander must be served.
@Suite(.timeLimit(.minutes(10)), .serialized) struct DenseRequestMemoryEndToEndTests {
    static let victim = "org.test.dense-victim"
    static let hostile = "org.test.dense-hostile"

    /// The bound on healthd's peak RSS, in MiB. Session 13: what a request unpacks to is claimed
    /// from its app's share as it is taken (`UnpackArena` → `BufferClaim.claimUnpacked`), so the
    /// six apps here (four sandboxed attackers, the direct one, the bystander) hold at most
    /// 6 × 32 MiB of counted memory over healthd's 41 MiB at rest: 233 MiB, and the ceiling leaves
    /// room for what is not counted (the reader's copy of a frame, the allocator's free lists).
    /// Measured 355 and 335 MiB (was 495 and 494 MiB with the fixed 4× count, session 12, when this
    /// ceiling was 1,024 MiB).
    static let peakBoundMiB = 512

    /// A batch of `bytes / 2` empty samples: 2 bytes each on the wire.
    static let emptySamples: [UInt8] = {
        let count = (WireLimits.maxFrameBytes - 1_024) / 2
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 2)
        for _ in 0..<count { bytes += [0x0A, 0x00] }
        return bytes
    }()

    /// Steps samples of 64 one-byte bool metadata entries each: valid, and the densest a valid
    /// save gets (13.9 bytes unpacked per byte, `UnpackedSizeTests`).
    static let denseMetadata: [UInt8] = {
        let metadata = Dictionary(uniqueKeysWithValues: (0..<64).map { (String(format: "k%02d", $0), MetadataValue.bool(true)) })
        func record() -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: BrokerMemoryBoundEndToEndTests.stepCount, startDate: Date(timeIntervalSince1970: 1_700_000_000),
                         endDate: Date(timeIntervalSince1970: 1_700_000_060), value: .quantity(10, unit: "count"), metadata: metadata)
        }
        let one = SampleList([record()]).wireBytes().count
        return SampleList((0..<min(WireLimits.maxSamplesPerSave, (WireLimits.maxFrameBytes - 1_024) / one)).map { _ in record() }).wireBytes()
    }()

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8](repeating: 0, count: bytes.count * 2)
        for (index, byte) in bytes.enumerated() {
            text[2 * index] = digits[Int(byte >> 4)]
            text[2 * index + 1] = digits[Int(byte & 15)]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// What the app is told: a save that would unpack past the bound is refused with
    /// errorDataSizeExceeded naming the bound and the fix, nothing is stored, and the app's next
    /// save is served.
    @Test func aRequestThatWouldUnpackPastTheBoundIsRefusedSayingSo() async throws {
        let broker = try BrokerProcess()
        let app = try await RawApp.install(Self.hostile, on: broker, grants: [("share", BrokerMemoryBoundEndToEndTests.stepCount)])
        defer { app.close(); withExtendedLifetime(broker) {} }
        do {
            _ = try await app.client.unary(HealthStoreMethod.save.rawValue, Self.emptySamples)
            Issue.record("a save of \(Self.emptySamples.count / 2) empty samples was answered")
        } catch let status as RPCStatus {
            #expect(status.healthKitCode == .errorDataSizeExceeded, "\(status)")
            #expect(status.message.contains("unpacked") && status.message.contains("split"), "\(status.message)")
        }
        let saved = try await app.save([JunkRecords.stepsSample()])
        #expect(saved.count == 1)
        let stored = try await app.query(SampleQuerySpec(typeIdentifier: BrokerMemoryBoundEndToEndTests.stepCount))
        #expect(stored.count == 1, "\(stored.count) samples stored")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }

    /// Session 13: a valid save whose unpacked form fits the wire bound (13.9 bytes a byte, under
    /// 16) but not what its app may hold — its 32 MiB share, counting the frame, what it really
    /// unpacks to and the values built from it — is refused with RESOURCE_EXHAUSTED and
    /// errorDataSizeExceeded naming the share; nothing of it is stored, a sandboxed bystander's save
    /// and query are served right after, and the app's next (small) save is served. Before, the
    /// share counted the frame at 4× (16 MiB) and the save was answered, having taken ~56 MiB
    /// unpacked and as much again in Swift values.
    @Test func aValidSaveUnpackingPastTheAppShareIsRefusedNamingTheShare() async throws {
        let broker = try BrokerProcess()
        let app = try await RawApp.install(Self.hostile, on: broker, grants: [("share", BrokerMemoryBoundEndToEndTests.stepCount)])
        defer { app.close(); withExtendedLifetime(broker) {} }
        try await broker.installClient(Self.victim)
        try await broker.set(Self.victim, "share", BrokerMemoryBoundEndToEndTests.stepCount, allowed: true)
        try await broker.set(Self.victim, "read", BrokerMemoryBoundEndToEndTests.stepCount, allowed: true)
        do {
            _ = try await app.client.unary(HealthStoreMethod.save.rawValue, Self.denseMetadata)
            Issue.record("a save of \(Self.denseMetadata.count) bytes of dense metadata was answered")
        } catch let status as RPCStatus {
            #expect(status.code == .resourceExhausted, "\(status)")
            #expect(status.healthKitCode == .errorDataSizeExceeded, "\(status)")
            #expect(status.message.contains("32 MiB") && status.message.contains("split"), "\(status.message)")
        }
        let saved = try await broker.runApp(Self.victim, ["save", BrokerMemoryBoundEndToEndTests.stepCount, "5", "count", "1700000000", "1700000060"])
        #expect(saved.okValue != nil, "the bystander's save failed: \(saved)")
        let queried = try await broker.runApp(Self.victim, ["query", BrokerMemoryBoundEndToEndTests.stepCount])
        #expect(queried.stdout.contains("ok 1"), "the bystander saw other than its one sample: \(queried)")
        #expect(try await app.save([JunkRecords.stepsSample()]).count == 1)
        let stored = try await app.query(SampleQuerySpec(typeIdentifier: BrokerMemoryBoundEndToEndTests.stepCount))
        #expect(stored.count == 1, "\(stored.count) samples of the app stored")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }

    @Test func denseRequestsFromSeveralSandboxedAppsStayWithinTheBound() async throws {
        let broker = try BrokerProcess()
        let attackers = (0..<4).map { "org.test.dense-\($0)" }
        for app in attackers { try await broker.install(appID: app, executable: Products.path("leak-probe-client")) }
        try await broker.install(appID: Self.hostile, executable: Products.testProcessExecutable)
        try await broker.allowDirect(Self.hostile)
        try await broker.installClient(Self.victim)
        try await broker.set(Self.victim, "share", BrokerMemoryBoundEndToEndTests.stepCount, allowed: true)
        try await broker.set(Self.victim, "read", BrokerMemoryBoundEndToEndTests.stepCount, allowed: true)
        let before = try #require(BrokerMemoryBoundEndToEndTests.memory(of: broker.pid))

        let method = HealthStoreMethod.save.rawValue
        let flood = Flood()
        var sockets: [Int32] = []
        var sessions: [ProbeClientSession] = []
        defer { flood.stop(); for fd in sockets { close(fd) }; withExtendedLifetime(broker) {} }
        for _ in 0..<16 {
            let fd = try UnixSocket.connect(path: broker.appSocket)
            sockets.append(fd)
            flood.run(on: fd, method: method, payload: Self.denseMetadata)
        }
        // Half the sandboxed attackers send empty samples, half dense metadata; each answers
        // `done` once healthd answered its first request, so every flood is under way.
        for (index, app) in attackers.enumerated() {
            let session = try ProbeClientSession(Products.path("health-sandbox"),
                                                 ["run", app, "--socket", broker.adminSocket, "--", Products.path("leak-probe-client")])
            sessions.append(session)
            let payload = index.isMultiple(of: 2) ? Self.emptySamples : Self.denseMetadata
            let first = try await session.run("flood \(method) \(Self.hex(payload))", timeout: 240)
            // Each is refused for what it would hold (session 13: the dense metadata was served
            // before; the empty samples were refused at the wire bound only after taking 16×).
            #expect(first == ["first resourceExhausted errorDataSizeExceeded"], "attacker \(index): \(first)")
        }
        let saved = try await broker.runApp(Self.victim, ["save", BrokerMemoryBoundEndToEndTests.stepCount, "5", "count", "1700000000", "1700000060"],
                                            timeout: 240)
        #expect(saved.okValue != nil, "the victim's save failed beside the floods: \(saved)")
        let queried = try await broker.runApp(Self.victim, ["query", BrokerMemoryBoundEndToEndTests.stepCount], timeout: 240)
        #expect(queried.stdout.contains("ok 1"), "the victim's query failed beside the floods: \(queried)")
        // A little longer under the full load, so the peak is the floods' and not their start's.
        try await Task.sleep(for: .seconds(5))
        flood.stop()
        let after = try #require(BrokerMemoryBoundEndToEndTests.memory(of: broker.pid), "healthd is gone: \(broker.log)")
        var answered: [String] = []
        for session in sessions { answered.append("\(await session.finish())") }
        print("healthd memory: before \(before.current / 1_024) MiB; peak under the dense floods \(after.peak / 1_024) MiB; "
              + "direct flood answered \(flood.answered); attackers exited \(answered)")
        #expect(after.peak / 1_024 < Self.peakBoundMiB,
                "healthd's peak resident memory \(after.peak / 1_024) MiB passed \(Self.peakBoundMiB) MiB")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }
}

/// One hostile app's flood: per connection, a thread that writes maximal requests with fresh
/// call ids until stopped, and one that reads (and drops) every answer.
///
/// Each thread works on its own duplicate of the connection and closes it when it ends, so the
/// test closing its descriptors can never hand their numbers to another suite's pipe or socket
/// while a flood thread still writes to them (session 12: a writer still looping after the
/// close wrote 4 MiB frames into another test's pipe, and a closed pipe's SIGPIPE ended the whole
/// test process). `stop` shuts the connections down, which ends a send blocked on a full socket.
final class Flood: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let answers = Atomic<Int>(0)
    private let connections = Mutex<[Int32]>([])

    var answered: Int { answers.load(ordering: .relaxed) }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        for fd in connections.withLock({ $0 }) { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    func run(on fd: Int32, method: String, payload: [UInt8]) {
        connections.withLock { $0.append(fd) }
        let writerFD = dup(fd)
        Thread { [self] in
            defer { close(writerFD) }
            var id: UInt64 = 1
            while !stopped.load(ordering: .relaxed) {
                let bytes = FrameCodec.encode(.request(id, method, payload))
                id += 1
                guard sendAll(bytes, to: writerFD) else { return }
            }
        }.start()
        let reader = FrameConnection(fd: dup(fd))
        Thread { [self] in
            _ = reader.readFrames { _ in answers.add(1, ordering: .relaxed) }
        }.start()
    }
}
