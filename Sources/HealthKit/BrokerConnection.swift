import Foundation
import HealthIPC
import HealthWire
import Synchronization

/// The process's one connection to healthd, shared by every `HKHealthStore`. It is opened on
/// first use (so creating a store costs nothing) and, when it was dialled by path, opened again
/// after the broker went away. Every failure leaves here as an `HKError`.
final class BrokerConnection: Sendable {
    static let shared = BrokerConnection(environment: ProcessInfo.processInfo.environment)

    private let environment: [String: String]
    private let state = Mutex<Established?>(nil)
    /// The user's preferences feed of this process (`.HKUserPreferencesDidChange`), opened by
    /// the first `preferredUnits(for:)`.
    let userPreferences = UserPreferencesFeed()

    private struct Established {
        let client: RPCClient
        let canReconnect: Bool
    }

    init(environment: [String: String]) {
        self.environment = environment
    }

    /// Adopts an already connected client (tests hand in one end of a socket pair).
    init(client: RPCClient) {
        environment = [:]
        state.withLock { $0 = Established(client: client, canReconnect: false) }
    }

    /// The connected client, connecting first if needed.
    func client() throws(HKError) -> RPCClient {
        try state.withLock { (established) throws(HKError) -> RPCClient in
            if let established { return established.client }
            let endpoint = try BrokerEndpoint.resolve(environment: environment)
            let client = try endpoint.connect()
            established = Established(client: client, canReconnect: endpoint.canReconnect)
            return client
        }
    }

    /// A unary call with typed request and response.
    func call<Response: WireMessage>(
        _ method: HealthStoreMethod, _ request: some WireMessage, returning _: Response.Type = Response.self
    ) async throws(HKError) -> Response {
        try await call(method, payload: request.wireBytes())
    }

    /// A unary call whose request is already encoded (save checks the encoded size first).
    func call<Response: WireMessage>(
        _ method: HealthStoreMethod, payload: [UInt8], returning _: Response.Type = Response.self
    ) async throws(HKError) -> Response {
        let client = try client()
        let response: [UInt8]
        do {
            response = try await client.unary(method.rawValue, payload)
        } catch {
            throw failure(error, on: client)
        }
        do {
            return try Response(wire: response)
        } catch {
            throw HKError(.unknownError, "healthd sent a malformed \(method) response (\(error))")
        }
    }

    /// A unary call that blocks the calling thread (see `RPCClient.unaryBlocking`), for
    /// HealthKit's synchronous methods. Safe from any thread: nothing of it runs on Swift's
    /// cooperative pool.
    func callBlocking<Response: WireMessage>(
        _ method: HealthStoreMethod, _ request: some WireMessage, returning _: Response.Type = Response.self
    ) throws(HKError) -> Response {
        let client = try client()
        let response: [UInt8]
        do {
            response = try client.unaryBlocking(method.rawValue, request.wireBytes())
        } catch {
            throw failure(error, on: client)
        }
        do {
            return try Response(wire: response)
        } catch {
            throw HKError(.unknownError, "healthd sent a malformed \(method) response (\(error))")
        }
    }

    /// A server-streaming call; the stream's errors are still raw and go through `failure`.
    func stream(_ method: HealthStoreMethod, _ request: some WireMessage) throws(HKError) -> (RPCClient, AsyncThrowingStream<[UInt8], any Error>) {
        let client = try client()
        return (client, client.serverStream(method.rawValue, request.wireBytes()))
    }

    /// The HealthKit error for a failed call. A lost connection (`unavailable` with no HealthKit
    /// code: the broker reports its own unavailability, e.g. a locked store, with one) is
    /// forgotten so the next call dials again, if it was dialled by path.
    func failure(_ error: any Error, on client: RPCClient) -> HKError {
        switch error {
        case let status as RPCStatus:
            if status.code == .unavailable, status.healthKitCode == nil { forget(client) }
            return status.asHKError
        case let error as HKError:
            return error
        case is CancellationError:
            return HKError(.errorUserCanceled, "the call was cancelled")
        default:
            return HKError(.unknownError, "call to healthd failed: \(error)")
        }
    }

    private func forget(_ client: RPCClient) {
        let dropped = state.withLock { established -> RPCClient? in
            guard let current = established, current.client === client, current.canReconnect else { return nil }
            established = nil
            return current.client
        }
        dropped?.close()
    }
}
