import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Synchronization
import Testing
import TestSupport

/// Saves while the store is locked go to the pending journal (ARCHITECTURE.md, "Locked store").
/// Each append seals the entry and waits for fdatasync; until session 13 each one did so on a
/// thread started for it (`BlockingWork`), so an app keeping its 64 calls in flight with saves
/// made healthd start and park a thread per call — every app's threads queued on the journal's
/// one lock, in no order. Now appends go in turn through one thread (`JournalAppends`), and a
/// waiting save holds no thread. A hostile app floods small saves on 4 connections while locked;
/// healthd's thread count is sampled meanwhile, and a sandboxed bystander's save while locked
/// is answered.
@Suite(.timeLimit(.minutes(10)), .serialized) struct LockedSaveFloodEndToEndTests {
    static let hostile = "org.test.locked-flood"
    static let victim = "org.test.locked-flood-victim"
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue

    static func threads(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
            .flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) }
    }

    @Test func savesFloodedWhileLockedHoldNoThreadEachAndABystanderIsServed() async throws {
        let broker = try BrokerProcess()
        let app = try await RawApp.install(Self.hostile, on: broker, grants: [("share", Self.steps)])
        try await broker.installClient(Self.victim)
        try await broker.set(Self.victim, "share", Self.steps, allowed: true)
        let lock = try await broker.healthctl(["lock"])
        #expect(lock.status == 0, "\(lock)")
        // Connections are made before the baseline: each has a reader and a writer thread.
        let flood = Flood()
        var sockets: [Int32] = []
        defer { flood.stop(); for fd in sockets { close(fd) }; app.close(); withExtendedLifetime(broker) {} }
        for _ in 0..<4 { sockets.append(try UnixSocket.connect(path: broker.appSocket)) }
        try await Task.sleep(for: .milliseconds(500))
        let baseline = try #require(Self.threads(of: broker.pid))

        let payload = SampleList([JunkRecords.stepsSample()]).wireBytes()
        for fd in sockets { flood.run(on: fd, method: HealthStoreMethod.save.rawValue, payload: payload) }
        // Sampled on a thread of its own while the flood and the bystander's save go on.
        let sampling = Sampler()
        let pid = broker.pid
        Thread {
            while !sampling.stopped { sampling.record(Self.threads(of: pid) ?? 0); usleep(1_000) }
        }.start()
        try await Task.sleep(for: .seconds(3))
        let saved = try await broker.runApp(Self.victim, ["save", Self.steps, "5", "count", "1700000000", "1700000060"], timeout: 120)
        #expect(saved.okValue != nil, "the bystander's save while locked failed beside the flood: \(saved)")
        sampling.stop()
        flood.stop()
        let peak = sampling.peak
        print("healthd threads while locked: \(baseline) before the flood, peak \(peak); flood answered \(flood.answered)")
        #expect(flood.answered > 64, "the flood was not under way: \(flood.answered) answers")
        // The bystander's connection (2 threads), the pool, one journal thread and some slack:
        // not one thread per save in flight (64 for this app).
        #expect(peak - baseline <= 16, "healthd went from \(baseline) to \(peak) threads")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }
}

/// The highest value recorded, from a sampling thread.
final class Sampler: Sendable {
    private let state = Mutex<(peak: Int, stopped: Bool)>((0, false))
    var stopped: Bool { state.withLock { $0.stopped } }
    var peak: Int { state.withLock { $0.peak } }
    func record(_ value: Int) { state.withLock { $0.peak = max($0.peak, value) } }
    func stop() { state.withLock { $0.stopped = true } }
}
