import Foundation
import Glibc
@testable import HealthBroker
import Synchronization
import Testing

/// The app socket's accept thread hands each connection to a bounded queue of identification
/// work and never waits (s19 availability review, finding 6); refused connections are logged
/// through a bounded queue that drops, and counts, what does not fit.
@Suite(.timeLimit(.minutes(10))) struct ConnectionAdmissionTests {
    /// A full queue refuses at once (`submit` is false, without waiting) while its workers are
    /// held; the queued connections are identified once a worker is free; a stop closes what
    /// is still queued.
    @Test func aFullQueueRefusesAtOnceAndAStopClosesWhatWaits() async throws {
        let admission = ConnectionAdmission(workers: 1, capacity: 2)
        let hold = DispatchSemaphore(value: 0)
        let admitted = Mutex<[Int32]>([])
        let admit: @Sendable (Int32) -> Void = { fd in
            admitted.withLock { $0.append(fd) }
            hold.wait()
        }
        let fds = (0..<4).map { _ in open("/dev/null", O_RDONLY | O_CLOEXEC) }
        // fds[2] is closed by the stop, still queued; the others here.
        defer { for fd in [fds[0], fds[1], fds[3]] { close(fd) } }
        #expect(admission.submit(fds[0], admit))
        try #require(try await CheckPoolTests.eventually { admitted.withLock { $0.count } == 1 })
        #expect(admission.submit(fds[1], admit))
        #expect(admission.submit(fds[2], admit))
        let clock = ContinuousClock()
        let started = clock.now
        #expect(!admission.submit(fds[3], admit), "a third waiting connection was queued past the capacity of 2")
        #expect(clock.now - started < .seconds(5), "submit waited")  // a hang guard: it never waits
        #expect(admission.pending == 3)
        hold.signal()
        try #require(try await CheckPoolTests.eventually { admitted.withLock { $0.count } == 2 })
        admission.stop()
        hold.signal()
        try #require(try await CheckPoolTests.eventually { admission.pending == 0 })
        #expect(admitted.withLock { $0 } == [fds[0], fds[1]])
        #expect(!admission.submit(fds[3], admit), "a stopped admission queued a connection")
    }

    /// Refusals past the queue's capacity are dropped without waiting and counted; the count is
    /// handed with the next one written, and each keeps its own time.
    @Test func refusalsPastTheQueueAreDroppedAndCounted() async throws {
        let log = RefusedConnectionLog(capacity: 2)
        let times = (0..<5).map { Date(timeIntervalSince1970: 1_700_000_000 + Double($0)) }
        for (index, time) in times.enumerated() {
            log.offer([RefusalLogThrottle.Entry(actor: "?", appID: nil, detail: "refused \(index)", types: [])], at: time)
        }
        #expect(log.pending == 2)
        #expect(log.droppedCount == 3)
        let written = Mutex<[(String, Date, Int)]>([])
        let drain = Task {
            await log.drain { refusals, dropped in
                written.withLock { list in for refusal in refusals { list.append((refusal.entry.detail, refusal.time, dropped)) } }
            }
        }
        try #require(try await CheckPoolTests.eventually { written.withLock { $0.count } == 2 })
        log.finish()
        await drain.value
        let all = written.withLock { $0 }
        #expect(all.map(\.0) == ["refused 0", "refused 1"])
        #expect(all.map(\.1) == [times[0], times[1]])
        #expect(all.map(\.2) == [3, 0])
        #expect(log.pending == 0)
    }
}
