import Dispatch
import Foundation
import Glibc
import HealthWire
import Synchronization

/// The client side of a connection: numbered calls multiplexed over one socket, a reader
/// thread routing each frame to its call, unary and server-streaming calls as async functions.
/// Used by the SDK, healthctl and health-sandbox.
public final class RPCClient: Sendable {
    private let connection: FrameConnection
    private let calls = Mutex(CallTable())

    private struct CallTable {
        var nextID: UInt64 = 1
        var pending: [UInt64: Pending] = [:]
        /// Set once the connection is gone; every later call fails with it.
        var failure: RPCStatus?
    }

    private enum Pending {
        case unary(CheckedContinuation<[UInt8], any Error>)
        case stream(AsyncThrowingStream<[UInt8], any Error>.Continuation)
        case blocking(BlockedCaller)
    }

    /// A thread waiting in `unaryBlocking` for its answer.
    private final class BlockedCaller: Sendable {
        let result = Mutex<Result<[UInt8], RPCStatus>?>(nil)
        let answered = DispatchSemaphore(value: 0)
    }

    /// Connects to a broker socket by path — only to a healthd of this user's or root's, checked
    /// before anything is sent (`BrokerSocket`).
    public static func connect(path: String) throws(BrokerConnectError) -> RPCClient {
        RPCClient(fd: try BrokerSocket.connect(path: path))
    }

    /// Adopts an already connected descriptor (e.g. the one health-sandbox passed to an app).
    public init(fd: Int32, acceptsDescriptors: Bool = false) {
        connection = FrameConnection(fd: fd, acceptsDescriptors: acceptsDescriptors)
        let thread = Thread { [self] in readLoop() }
        thread.name = "openhealth-rpc-reader"
        thread.start()
    }

    /// A unary call: the response payload, or the call's failure as `RPCStatus`.
    public func unary(_ method: String, _ payload: [UInt8]) async throws -> [UInt8] {
        let id = nextCallID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if let failure = register(id, .unary(continuation)) {
                    continuation.resume(throwing: failure)
                    return
                }
                // Cancelled before the call was registered: `onCancel` already ran and found
                // nothing to cancel, so the request must not go out at all.
                if Task.isCancelled {
                    complete(id, with: .failure(RPCStatus(.cancelled, "cancelled by the caller")))
                    return
                }
                sendRequest(id, method, payload)
            }
        } onCancel: {
            cancel(id)
        }
    }

    /// A unary call for synchronous code that may block its thread (HealthKit's few synchronous
    /// methods, e.g. `authorizationStatus(for:)`): sends from the calling thread and waits there
    /// until the reader thread hands over the answer. No task, no executor: the call costs the
    /// socket round trip and one wake-up of the caller, and it cannot starve (or be starved by)
    /// Swift's cooperative pool, since nothing of it runs there — a caller may block any thread,
    /// including every pool thread at once.
    public func unaryBlocking(_ method: String, _ payload: [UInt8]) throws -> [UInt8] {
        let id = nextCallID()
        let caller = BlockedCaller()
        if let failure = register(id, .blocking(caller)) { throw failure }
        sendRequest(id, method, payload)
        caller.answered.wait()
        // Set before the signal, by whoever completed the call (reader, send failure, or the
        // connection's end), exactly once: the call was removed from the table under its lock.
        guard let result = caller.result.withLock({ $0 }) else {
            throw RPCStatus(.internal, "a blocking call was woken without an answer")
        }
        return try result.get()
    }

    /// A server-streaming call. Ending iteration early (or cancelling the consuming task) sends
    /// CANCEL so the broker stops the work.
    public func serverStream(_ method: String, _ payload: [UInt8]) -> AsyncThrowingStream<[UInt8], any Error> {
        let id = nextCallID()
        return AsyncThrowingStream { continuation in
            continuation.onTermination = { [self] termination in
                if case .cancelled = termination { cancel(id) }
            }
            if let failure = register(id, .stream(continuation)) {
                continuation.finish(throwing: failure)
                return
            }
            sendRequest(id, method, payload)
        }
    }

    /// The descriptor that arrived with the most recent response, for LaunchBind.
    public func takeReceivedDescriptor() -> Int32? { connection.takeReceivedDescriptor() }

    /// The raw descriptor, e.g. to hand it to an exec'd app.
    public var descriptor: Int32 { connection.fd }

    public func close() { connection.close() }

    // MARK: - Internals

    private func nextCallID() -> UInt64 {
        calls.withLock { table in
            defer { table.nextID += 1 }
            return table.nextID
        }
    }

    /// Registers a call, or returns the connection's failure if it is already gone.
    private func register(_ id: UInt64, _ pending: Pending) -> RPCStatus? {
        calls.withLock { table in
            if let failure = table.failure { return failure }
            table.pending[id] = pending
            return nil
        }
    }

    private func sendRequest(_ id: UInt64, _ method: String, _ payload: [UInt8]) {
        do {
            try connection.send(.request(id, method, payload))
        } catch where error.errno == EPIPE || error.errno == ECONNRESET {
            // healthd closed the connection, usually right after saying why (a connection-level
            // status such as "this executable is not an installed app"). The read loop is about
            // to reach that status and the end of the stream; it fails this call with the
            // reason instead of this side's broken pipe.
        } catch {
            complete(id, with: .failure(RPCStatus(.unavailable, "cannot send to healthd: \(error)")))
        }
    }

    private func cancel(_ id: UInt64) {
        let wasPending = calls.withLock { $0.pending[id] != nil }
        guard wasPending else { return }
        try? connection.send(Frame(callID: id, kind: .cancel))
        complete(id, with: .failure(RPCStatus(.cancelled, "cancelled by the caller")))
    }

    private func readLoop() {
        let failure = connection.readFrames { frame in route(frame) }
        // These words (and "cannot send to healthd: ") are `RPCStatus.connectionLossMessages`:
        // healthctl tells a lost connection from healthd's own UNAVAILABLE by them.
        let status = if let failure {
            RPCStatus(.unavailable, "connection to healthd failed: \(failure)")
        } else {
            RPCStatus(.unavailable, "healthd closed the connection")
        }
        let orphans = calls.withLock { table in
            table.failure = table.failure ?? status
            defer { table.pending.removeAll() }
            return table.pending
        }
        let reason = calls.withLock { $0.failure! }
        for (_, pending) in orphans { finish(pending, .failure(reason)) }
    }

    private func route(_ frame: Frame) {
        switch frame.kind {
        case .response:
            if let status = frame.status, status.code != .ok {
                complete(frame.callID, with: .failure(status))
            } else {
                complete(frame.callID, with: .success(frame.payload))
            }
        case .streamMessage:
            let pending = calls.withLock { $0.pending[frame.callID] }
            if case let .stream(continuation)? = pending { continuation.yield(frame.payload) }
        case .endOfStream:
            if frame.callID == 0 {
                // A connection-level status (e.g. an oversize frame) precedes the broker closing.
                calls.withLock { $0.failure = frame.status ?? RPCStatus(.unknown) }
                return
            }
            let status = frame.status ?? .ok
            complete(frame.callID, with: status.code == .ok ? .success([]) : .failure(status))
        case .request, .cancel:
            break  // never sent by a broker; ignored
        }
    }

    private func complete(_ id: UInt64, with result: Result<[UInt8], RPCStatus>) {
        guard let pending = calls.withLock({ $0.pending.removeValue(forKey: id) }) else { return }
        finish(pending, result)
    }

    private func finish(_ pending: Pending, _ result: Result<[UInt8], RPCStatus>) {
        switch (pending, result) {
        case let (.unary(continuation), .success(payload)): continuation.resume(returning: payload)
        case let (.unary(continuation), .failure(status)): continuation.resume(throwing: status)
        case let (.stream(continuation), .success): continuation.finish()
        case let (.stream(continuation), .failure(status)): continuation.finish(throwing: status)
        case let (.blocking(caller), result):
            caller.result.withLock { $0 = result }
            caller.answered.signal()
        }
    }
}
