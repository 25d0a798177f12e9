import Foundation
import HealthIPC
@testable import HealthKit

/// A stand-in for healthd: the real server side of the protocol (`ServerConnection`) on one end
/// of a socket pair, answering with the test's handler; the SDK holds the other end.
struct FakeBroker {
    let store: HKHealthStore
    private let client: RPCClient

    init(_ handler: @escaping @Sendable (IncomingCall) async -> Void) throws {
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        try self.init(serverEnd: serverEnd, connection: { BrokerConnection(client: RPCClient(fd: clientEnd)) }, handler)
    }

    /// Serves on `serverEnd`, with the SDK side built by `connection` (e.g. from an environment).
    init(serverEnd: Int32, connection: () throws -> BrokerConnection,
         _ handler: @escaping @Sendable (IncomingCall) async -> Void) throws {
        let server = ServerConnection(fd: serverEnd)
        Thread { _ = server.serve(handler) }.start()
        let connection = try connection()
        store = HKHealthStore(connection: connection)
        client = try connection.client()
    }

    /// Closes the SDK's end; the server thread then sees end of file and exits.
    func close() { client.close() }
}

/// Polls `condition` for up to two seconds; for events another thread causes.
func eventually(_ condition: () -> Bool) async throws -> Bool {
    // 120 s: a hang guard, not a speed (2 s failed correct code on a loaded machine).
    for _ in 0..<12_000 {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
