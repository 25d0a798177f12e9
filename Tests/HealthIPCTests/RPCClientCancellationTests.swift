import Foundation
import HealthIPC
import HealthWire
import Synchronization
import Testing

/// A unary call made by a task that is already cancelled: the cancellation handler runs before
/// the call exists, so the call itself must notice — it fails as cancelled and never reaches
/// the server (which would otherwise do the work for nobody).
@Suite(.timeLimit(.minutes(10))) struct RPCClientCancellationTests {
    @Test func aUnaryCallFromACancelledTaskNeverReachesTheServer() async throws {
        let received = Mutex<[String]>([])
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        let server = ServerConnection(fd: serverEnd, maxCallsInFlight: 4)
        Thread {
            _ = server.serve { call in
                received.withLock { $0.append(call.method) }
                call.responder.respond([])
            }
        }.start()
        let client = RPCClient(fd: clientEnd)
        defer { client.close() }

        let cancelledCall = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.unary("/t/Cancelled", [])
        }
        await #expect(throws: RPCStatus(.cancelled, "cancelled by the caller")) { try await cancelledCall.value }

        // A later call on the same connection is served, so anything sent before it has arrived.
        _ = try await client.unary("/t/Later", [])
        #expect(received.withLock { $0 } == ["/t/Later"])
    }
}
