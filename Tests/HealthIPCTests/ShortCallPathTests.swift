import Dispatch
import Foundation
import Glibc
import HealthIPC
import HealthWire
import Synchronization
import Testing

/// The short call path (issue 17): a call answered on the connection's reader thread
/// (`serve(answerNow:)`), a synchronous client call (`RPCClient.unaryBlocking`), and replies
/// written by the thread that makes them (`OutboundQueue`'s direct path). Client and server
/// halves over a real socketpair, the server on its own thread.
@Suite(.timeLimit(.minutes(10))) struct ShortCallPathTests {
    /// "/t/Now…" methods are answered on the reader thread; everything else runs as a task.
    func start(limits: ConnectionLimits = ConnectionLimits(),
               _ handler: @escaping @Sendable (IncomingCall) async -> Void = { $0.responder.respond($0.payload) })
        throws -> RPCClient {
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        let server = ServerConnection(fd: serverEnd, limits: limits)
        Thread {
            _ = server.serve(answerNow: { call in
                guard call.method.hasPrefix("/t/Now") else { return false }
                call.responder.respond(call.payload)
                return true
            }, handler)
        }.start()
        return RPCClient(fd: clientEnd)
    }

    /// Makes `method`'s call from a thread of its own while every thread of Swift's cooperative
    /// pool is blocked, and says whether its answer came within `limit`. The pool is released
    /// before returning.
    func answeredWithThePoolBlocked(_ client: RPCClient, _ method: String, within limit: DispatchTimeInterval) -> Bool {
        let release = DispatchSemaphore(value: 0)
        let blockers = ProcessInfo.processInfo.activeProcessorCount * 2
        let blocking = DispatchSemaphore(value: 0)
        for _ in 0..<blockers {
            Task.detached {
                blocking.signal()
                release.wait()
            }
        }
        // At least one blocker runs on each pool thread this test is not itself holding.
        for _ in 0..<max(1, ProcessInfo.processInfo.activeProcessorCount - 1) { blocking.wait() }
        let answered = DispatchSemaphore(value: 0)
        let reply = Mutex<[UInt8]?>(nil)
        Thread {
            let answer = try? client.unaryBlocking(method, [7, 8, 9])
            reply.withLock { $0 = answer }
            answered.signal()
        }.start()
        let inTime = answered.wait(timeout: .now() + limit) == .success
        for _ in 0..<blockers { release.signal() }
        if !inTime { _ = answered.wait(timeout: .now() + 30) }
        return inTime && reply.withLock { $0 } == [7, 8, 9]
    }

    /// A call answered on the reader thread needs neither a task nor a pool thread on either
    /// side: it is answered while every pool thread of this process is blocked. The control
    /// — the same call run as a task — is not, which shows the pool really was blocked.
    @Test func anImmediateCallIsAnsweredWhileThePoolIsBlocked() throws {
        let client = try start()
        defer { client.close() }
        // The pool stays blocked until the answer comes: 120 s is a hang guard, not a speed.
        #expect(answeredWithThePoolBlocked(client, "/t/NowEcho", within: .seconds(120)))
        #expect(!answeredWithThePoolBlocked(client, "/t/TaskEcho", within: .milliseconds(500)))
        // And once the pool is free again, the task path answers as before.
        #expect(try client.unaryBlocking("/t/TaskEcho", [1]) == [1])
    }

    /// An immediate call passes the same per-connection limit as any other: with the
    /// connection's calls in flight all taken by running tasks, it is refused, not answered.
    @Test func anImmediateCallCountsAgainstTheInFlightLimit() async throws {
        let release = AsyncStream<Void>.makeStream()
        let started = AsyncStream<Void>.makeStream()
        let client = try start(limits: ConnectionLimits(callsInFlight: 2)) { call in
            started.continuation.yield()
            for await _ in release.stream {}
            call.responder.respond([])
        }
        defer { client.close() }
        let held = (0..<2).map { _ in Task { try await client.unary("/t/Hold", []) } }
        var iterator = started.stream.makeAsyncIterator()
        for _ in 0..<2 { await iterator.next() }
        do {
            _ = try client.unaryBlocking("/t/NowEcho", [1])
            Issue.record("answered beyond the connection's in-flight limit")
        } catch {
            #expect((error as? RPCStatus)?.code == .resourceExhausted)
        }
        release.continuation.finish()
        for call in held { _ = try await call.value }
        #expect(try client.unaryBlocking("/t/NowEcho", [1]) == [1])
    }

    /// Replies leave whole and in the order each call made them, whichever thread writes them:
    /// eight calls stream at once (so frames are appended while another is being written
    /// directly) messages from 1 byte to 192 KiB (many larger than the socket buffer, so the
    /// direct path writes part and queues the rest) to a client that pauses now and then.
    @Test func repliesLeaveWholeAndInOrderWhenDirectWritesArePartial() async throws {
        let sizes = (0..<120).map { index in [1, 100, 5_000, 70_000, 196_608][index % 5] + index }
        @Sendable func message(call: Int, index: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: call &* 31 &+ index), count: sizes[index])
            bytes[0] = UInt8(call)
            return bytes
        }
        let client = try start { call in
            let number = Int(call.payload.first ?? 0)
            for index in sizes.indices {
                do { try await call.responder.send(message(call: number, index: index)) } catch { return }
            }
            call.responder.finish()
        }
        defer { client.close() }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<8 {
                group.addTask {
                    var received = 0
                    for try await answer in client.serverStream("/t/Stream", [UInt8(number)]) {
                        #expect(answer == message(call: number, index: received), "call \(number), message \(received)")
                        received += 1
                        if received.isMultiple(of: 40) { try await Task.sleep(for: .milliseconds(5)) }
                    }
                    return received
                }
            }
            for try await received in group { #expect(received == sizes.count) }
        }
    }

    /// A descriptor passed with a reply arrives with it on the direct path, and on the queued
    /// path (a reply queued behind a large one the peer has not read yet).
    @Test func aDescriptorPassedWithAReplyArrives() async throws {
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        let server = ServerConnection(fd: serverEnd)
        let pipe = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        defer { pipe.deallocate() }
        #expect(Glibc.pipe(pipe) == 0)
        let readEnd = pipe[0]
        let writeEnd = pipe[1]
        defer { Glibc.close(readEnd); Glibc.close(writeEnd) }
        Thread {
            _ = server.serve { call in
                if call.method == "/t/Big" { call.responder.respond([UInt8](repeating: 3, count: 1 << 20)) }
                else { call.responder.respond([1], passing: writeEnd) }
            }
        }.start()
        let client = RPCClient(fd: clientEnd, acceptsDescriptors: true)
        defer { client.close() }
        for path in ["direct", "queued"] {
            if path == "queued" {
                async let big = client.unary("/t/Big", [])
                #expect(try await client.unary("/t/Pass", []) == [1])
                #expect(try await big.count == 1 << 20)
            } else {
                #expect(try await client.unary("/t/Pass", []) == [1])
            }
            let received = try #require(client.takeReceivedDescriptor(), "\(path): no descriptor")
            defer { Glibc.close(received) }
            // The received descriptor is the pipe's write end: what it writes, the read end reads.
            var byte: UInt8 = 42
            #expect(write(received, &byte, 1) == 1)
            byte = 0
            #expect(read(readEnd, &byte, 1) == 1 && byte == 42, "\(path)")
        }
    }
}
