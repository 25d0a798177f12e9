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

/// One hostile app's flood: per connection, a thread that writes maximal requests with fresh
/// call ids until stopped, and one that reads (and drops) every answer.
final class Flood: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let answers = Atomic<Int>(0)

    var answered: Int { answers.load(ordering: .relaxed) }

    func stop() { stopped.store(true, ordering: .relaxed) }

    func run(on fd: Int32, method: String, payload: [UInt8]) {
        Thread { [self] in
            var id: UInt64 = 1
            while !stopped.load(ordering: .relaxed) {
                let bytes = FrameCodec.encode(.request(id, method, payload))
                id += 1
                guard sendAll(bytes, to: fd) else { return }
            }
        }.start()
        let reader = FrameConnection(fd: dup(fd))
        Thread { [self] in
            _ = reader.readFrames { _ in answers.add(1, ordering: .relaxed) }
        }.start()
    }
}
