import Dispatch
import Foundation
import HealthIPC
import HealthWire
import Synchronization
import Testing

/// `ServerConnection.end(with:)` promises its caller that nothing the peer asked for is still
/// under way when it returns (`ConnectionRegistry.endConnections`: removing an app ends its
/// connections, then removes the app and deletes its data). A call answered on the reader thread
/// (`serve(answerNow:)`: since session 10, a lone save committing there) has no task, so `end`
/// returned while it was still committing, and the save of a removed app could land after its
/// data was deleted. Client and server halves over a real socketpair, the server on its own
/// thread; the reader's answer is held until the test releases it.
@Suite(.timeLimit(.minutes(10))) struct ReaderCallEndingTests {
    @Test func endingAConnectionWaitsForTheCallItsReaderIsAnswering() async throws {
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        let server = ServerConnection(fd: serverEnd)
        let entered = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let order = Mutex<[String]>([])
        Thread {
            _ = server.serve(answerNow: { call in
                entered.continuation.yield()
                release.wait()  // the reader thread, blocked as in a commit
                order.withLock { $0.append("answered") }
                call.responder.respond([])
                return true
            }) { call in call.responder.respond([]) }
        }.start()
        let client = RPCClient(fd: clientEnd)
        defer { client.close() }
        let call = Task { try? await client.unary("/t/NowSave", [1]) }
        for await _ in entered.stream { break }

        let ending = Task {
            let finished = await server.end(with: RPCStatus(.permissionDenied, "the app was removed"))
            order.withLock { $0.append("ended") }
            return finished
        }
        // `end` must not return while the answer is under way. Without the wait it returns at
        // once; 2 s give it every chance to, and the answer is then released. (Correct code
        // passes however long this takes: it is not a speed check.)
        let until = Date().addingTimeInterval(2)
        while Date() < until, !order.withLock({ $0.contains("ended") }) { try await Task.sleep(for: .milliseconds(20)) }
        release.signal()
        let finished = await ending.value
        _ = await call.value
        #expect(order.withLock { $0 } == ["answered", "ended"])
        #expect(finished)
    }

    /// Once a connection is ending, no call is answered on its reader thread any more: the call
    /// is neither answered there nor run as a task (the peer was told the connection's status).
    @Test func noCallStartsOnTheReaderOnceTheConnectionIsEnding() async throws {
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        let server = ServerConnection(fd: serverEnd)
        let answeredOnReader = Mutex(0)
        let ran = Mutex(0)
        let served = AsyncStream<Void>.makeStream()
        Thread {
            _ = server.serve(answerNow: { call in
                answeredOnReader.withLock { $0 += 1 }
                call.responder.respond([])
                return true
            }) { call in
                ran.withLock { $0 += 1 }
                call.responder.respond([])
            }
            served.continuation.finish()
        }.start()
        #expect(await server.end(with: RPCStatus(.permissionDenied, "the app was removed")))
        // Sent after the end: the server may still read it before it sees its own shutdown.
        let client = RPCClient(fd: clientEnd)
        defer { client.close() }
        _ = try? await client.unary("/t/NowSave", [1])
        for await _ in served.stream {}
        #expect(answeredOnReader.withLock { $0 } == 0)
        #expect(ran.withLock { $0 } == 0)
    }
}
