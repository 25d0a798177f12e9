import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Synchronization
import Testing
import TestSupport

/// What a client that reads slowly — but never stops — holds in healthd, and for how long
/// (ARCHITECTURE.md "Flow control", SECURITY.md "Availability").
///
/// A large query (here the reader's 11 MB of CDA documents, `LargeDocumentWorld`) streams from
/// inside one store read: while its client reads, it holds its app's query slot, a store reader, a
/// thread and a read transaction that keeps SQLite from reusing the write-ahead log. The unread
/// replies timeout only ends a client that takes nothing for its span; a client that takes a
/// little at a time resets it again and again. So the time such a query may spend waiting for its
/// client over its whole answer is bounded (`BrokerLimits.answerReadDeadline`), after which it
/// ends with RESOURCE_EXHAUSTED naming the limit and lets go of all of it.
///
/// healthd runs with the unread-replies timeout at 600 s (no single wait ends the query) and the
/// answer deadline at 5 s (the hidden `--answer-read-deadline`); the client reads 64 KiB a second,
/// so its 11 MB would take about three minutes. Before the deadline existed the query was still
/// streaming at 20 s, and the same app's next query still waited for its slot.
///
/// `aClientReadingAByteASecondIsCutOffByTheUnreadRepliesTimeout` measures the literal attack with
/// the default deadline and a 2 s timeout: a byte a second never frees a whole socket buffer
/// (the kernel gives the writer room only when a whole segment was read), so it is a client that
/// reads nothing as far as healthd's writer sees, and it is cut off by that timeout.
///
/// About 25 s: the world's 12 documents, then two cases of a few seconds each.
@Suite(.timeLimit(.minutes(10)), .serialized) struct SlowReaderEndToEndTests {
    static let writer = "org.test.slow-writer"
    static let reader = "org.test.slow-reader"
    static let deadlineSeconds = 5

    /// A connection read `chunk` bytes every `period`, on a thread of its own, decoding frames.
    final class SlowConnection: Sendable {
        let fd: Int32
        private let state = Mutex<(reader: FrameReader, received: Int, endings: [UInt64: RPCStatus], closed: Bool)>((FrameReader(), 0, [:], false))
        private let stopped = Atomic<Bool>(false)

        init(_ path: String, chunk: Int, period: Duration) throws {
            fd = try UnixSocket.connect(path: path)
            let thread = Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: chunk)
                while !stopped.load(ordering: .relaxed) {
                    let count = recv(fd, &buffer, chunk, 0)
                    if count <= 0 {
                        state.withLock { $0.closed = true }
                        return
                    }
                    record(Array(buffer[0..<count]))
                    Thread.sleep(forTimeInterval: Double(period.components.seconds) + Double(period.components.attoseconds) / 1e18)
                }
            }
            thread.start()
        }

        private func record(_ bytes: [UInt8]) {
            state.withLock { state in
                state.received += bytes.count
                guard let bodies = try? state.reader.consume(bytes) else { return }
                for body in bodies {
                    guard let frame = try? FrameCodec.decode(body), frame.kind == .endOfStream || frame.kind == .response else { continue }
                    state.endings[frame.callID] = frame.status ?? .ok
                }
            }
        }

        func send(_ callID: UInt64, _ method: String, _ payload: [UInt8]) {
            sendAll(FrameCodec.encode(.request(callID, method, payload)), to: fd)
        }

        var received: Int { state.withLock { $0.received } }
        /// healthd shut the connection down. Seen at once (POLLRDHUP), not when this slow reader
        /// reaches the end of what the kernel still holds for it, which at a byte a second is days.
        var closed: Bool {
            var entry = pollfd(fd: fd, events: 0x2000, revents: 0)  // POLLRDHUP
            return state.withLock { $0.closed } || (poll(&entry, 1, 0) == 1 && entry.revents & 0x2000 != 0)
        }
        func ending(of callID: UInt64) -> RPCStatus? { state.withLock { $0.endings[callID] } }

        func stop() {
            stopped.store(true, ordering: .relaxed)
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    /// A large query whose client reads 64 KiB a second ends at the answer deadline, with
    /// RESOURCE_EXHAUSTED naming it, and its app's slot is free again: the same app's next query
    /// (on another connection) is answered.
    @Test func aQueryWhoseClientReadsSlowlyEndsAtTheAnswerDeadline() async throws {
        let broker = try await LargeDocumentWorld(arguments: ["--stalled-peer-timeout", "600", "--large-queries-running", "1",
                                                              "--answer-read-deadline", "\(Self.deadlineSeconds)"],
                                                  writer: Self.writer, reader: Self.reader).broker
        defer { broker.stop() }
        let slow = try SlowConnection(broker.appSocket, chunk: 64 << 10, period: .seconds(1))
        defer { slow.stop() }
        let clock = ContinuousClock()
        let started = clock.now
        slow.send(1, HealthStoreMethod.querySamples.rawValue, LargeDocumentWorld.documentQuery)
        // The same app's next large query waits for the app's one slot, which the slow one holds.
        let next = try RawApp(client: RPCClient.connect(path: broker.appSocket))
        defer { next.close() }
        let nextAnswered = Task { try await next.query(SampleQuerySpec(typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue)) }

        let until = Date().addingTimeInterval(Double(Self.deadlineSeconds) + 30)
        while slow.ending(of: 1) == nil, !slow.closed, Date() < until { try await Task.sleep(for: .milliseconds(100)) }
        let took = clock.now - started
        let ending = slow.ending(of: 1)
        print("SlowReader: 64 KiB a second: the query ended after \(took) with \(String(describing: ending)), "
              + "\(slow.received) bytes read; connection closed: \(slow.closed)")
        #expect(ending?.code == .resourceExhausted, "the slow client's query: \(String(describing: ending)) after \(took)")
        #expect(ending?.message.contains("answer-read deadline") == true, "\(String(describing: ending))")
        #expect(slow.received < 11_000_000, "the whole answer was read: the deadline never applied")
        #expect(!slow.closed, "the connection was closed instead of the call ended")
        let answered = await Self.within(.seconds(30)) { _ = try await nextAnswered.value }
        #expect(answered, "the app's next query still waits for the slot the slow query held")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }

    /// The literal attack, measured: one byte a second. healthd's writer never gets room (the
    /// kernel frees socket memory a whole segment at a time), so the unread-replies timeout (2 s
    /// here) cuts the client off: the connection is shut down within a few timeouts, seen at once
    /// with POLLRDHUP (the reader itself would reach the end only after what the kernel holds).
    @Test func aClientReadingAByteASecondIsCutOffByTheUnreadRepliesTimeout() async throws {
        let broker = try await LargeDocumentWorld(arguments: ["--stalled-peer-timeout", "2", "--large-queries-running", "1"],
                                                  writer: Self.writer, reader: Self.reader, documents: 4).broker
        defer { broker.stop() }
        let slow = try SlowConnection(broker.appSocket, chunk: 1, period: .seconds(1))
        defer { slow.stop() }
        let clock = ContinuousClock()
        let started = clock.now
        slow.send(1, HealthStoreMethod.querySamples.rawValue, LargeDocumentWorld.documentQuery)
        let until = Date().addingTimeInterval(60)
        while !slow.closed, Date() < until { try await Task.sleep(for: .milliseconds(100)) }
        let took = clock.now - started
        print("SlowReader: a byte a second: connection closed after \(took), \(slow.received) bytes read")
        #expect(slow.closed, "healthd kept a client reading a byte a second for 60 s")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }

    /// Runs `body`; false when it did not finish within `limit`.
    static func within(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Void) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await body()) != nil }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
