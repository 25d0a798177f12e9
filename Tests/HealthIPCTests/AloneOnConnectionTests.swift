import Foundation
import HealthIPC
import Synchronization
import Testing

/// `IncomingCall.aloneOnConnection`, which decides whether healthd may commit a save on the
/// connection's reader thread (blocking that peer's next frames until the commit): true only
/// when no other call of the same connection is in flight. Client and server halves over a real
/// socketpair, the server on its own thread.
@Suite(.timeLimit(.minutes(10))) struct AloneOnConnectionTests {
    /// Answers "/t/Now…" on the reader thread, noting `aloneOnConnection`; "/t/Hold" runs as a
    /// task until `release` finishes.
    final class Server: Sendable {
        let seen = Mutex<[Bool]>([])
        let started = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()

        func start() throws -> RPCClient {
            let (clientEnd, serverEnd) = try UnixSocket.pair()
            let server = ServerConnection(fd: serverEnd)
            Thread { [self] in
                _ = server.serve(answerNow: { [self] call in
                    guard call.method.hasPrefix("/t/Now") else { return false }
                    seen.withLock { $0.append(call.aloneOnConnection) }
                    call.responder.respond(call.payload)
                    return true
                }, { [self] call in
                    started.continuation.yield()
                    for await _ in release.stream {}
                    call.responder.respond([])
                })
            }.start()
            return RPCClient(fd: clientEnd)
        }
    }

    @Test func aCallIsAloneOnlyWhileNoOtherCallOfItsConnectionIsInFlight() async throws {
        let server = Server()
        let client = try server.start()
        defer { client.close() }
        _ = try client.unaryBlocking("/t/NowFirst", [1])
        // A call of the same connection in flight (a task, like a long query): not alone.
        let held = Task { try await client.unary("/t/Hold", []) }
        var started = server.started.stream.makeAsyncIterator()
        await started.next()
        _ = try client.unaryBlocking("/t/NowBeside", [2])
        server.release.continuation.finish()
        _ = try await held.value
        // The held call's id is freed before its answer is sent: alone again.
        _ = try client.unaryBlocking("/t/NowAfter", [3])
        #expect(server.seen.withLock { $0 } == [true, false, true])
    }
}
