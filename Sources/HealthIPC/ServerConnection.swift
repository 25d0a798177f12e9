import Foundation
import Glibc
public import HealthWire
import Synchronization

/// One incoming call as the server's handler sees it.
public struct IncomingCall: Sendable {
    public let method: String
    public let payload: [UInt8]
    public let responder: CallResponder
}

/// How a handler answers its call. A unary handler calls `respond` or `fail` once; a streaming
/// handler calls `send` any number of times and then `finish`. Anything after the first final
/// answer is dropped, so a handler racing a CANCEL cannot write a second ending.
public final class CallResponder: Sendable {
    public let callID: UInt64
    private let connection: FrameConnection
    private let answered = Mutex(false)

    init(callID: UInt64, connection: FrameConnection) {
        self.callID = callID
        self.connection = connection
    }

    public func respond(_ payload: [UInt8]) {
        end(.response(callID, payload))
    }

    public func respond(_ payload: [UInt8], passing descriptor: Int32) {
        end(.response(callID, payload), passing: descriptor)
    }

    public func fail(_ status: RPCStatus, streaming: Bool) {
        end(.failure(callID, status, streaming: streaming))
    }

    /// Sends one stream message. Throws `CancellationError` once the call has ended (cancelled
    /// or the connection is gone), so a streaming handler stops its work.
    public func send(_ payload: [UInt8]) throws {
        if Task.isCancelled || answered.withLock({ $0 }) { throw CancellationError() }
        do {
            try connection.send(Frame(callID: callID, kind: .streamMessage, payload: payload))
        } catch {
            throw CancellationError()
        }
    }

    public func finish(_ status: RPCStatus = .ok) {
        end(Frame(callID: callID, kind: .endOfStream, status: status))
    }

    private func end(_ frame: Frame, passing descriptor: Int32 = -1) {
        let first = answered.withLock { answered in
            defer { answered = true }
            return !answered
        }
        guard first else { return }
        try? connection.send(frame, passing: descriptor)
    }
}

/// The server side of one connection: reads frames, enforces the per-connection limits, starts
/// a task per call, and routes CANCEL to it. What a method does — and whether this peer may call
/// it at all — is the `handler`'s business (the broker's method table), not this type's.
public final class ServerConnection: Sendable {
    public let connection: FrameConnection
    private let maxCallsInFlight: Int
    private let running = Mutex([UInt64: Task<Void, Never>]())

    public init(fd: Int32, maxCallsInFlight: Int = WireLimits.maxCallsInFlight) {
        connection = FrameConnection(fd: fd)
        self.maxCallsInFlight = maxCallsInFlight
    }

    /// Serves until the peer disconnects or violates the protocol; then cancels its calls.
    /// Blocks the calling thread. Returns why the connection ended (nil: the peer closed it).
    public func serve(_ handler: @escaping @Sendable (IncomingCall) async -> Void) -> FrameConnection.ReadFailure? {
        let failure = connection.readFrames { frame in
            switch frame.kind {
            case .request:
                start(frame, handler)
            case .cancel:
                let task = running.withLock { $0.removeValue(forKey: frame.callID) }
                task?.cancel()
                if task != nil {
                    CallResponder(callID: frame.callID, connection: connection)
                        .fail(RPCStatus(.cancelled, "cancelled by the client"), streaming: true)
                }
            case .response, .streamMessage, .endOfStream:
                break  // clients do not send these; ignoring them keeps the stream in sync
            }
        }
        if let failure {
            // Tell the peer why before closing; call id 0 marks a connection-level status.
            let code: StatusCode = if case .framing(.frameTooLarge) = failure { .resourceExhausted } else { .invalidArgument }
            try? connection.send(Frame(callID: 0, kind: .endOfStream, status: RPCStatus(code, "\(failure)")))
        }
        connection.close()
        let tasks = running.withLock { running in
            defer { running.removeAll() }
            return running.values
        }
        for task in tasks { task.cancel() }
        return failure
    }

    private func start(_ frame: Frame, _ handler: @escaping @Sendable (IncomingCall) async -> Void) {
        let responder = CallResponder(callID: frame.callID, connection: connection)
        let refusal: RPCStatus? = running.withLock { running in
            if frame.callID == 0 { return RPCStatus(.invalidArgument, "call id 0 is reserved") }
            if running[frame.callID] != nil { return RPCStatus(.alreadyExists, "call id \(frame.callID) is in use") }
            if running.count >= maxCallsInFlight {
                return RPCStatus(.resourceExhausted, "more than \(maxCallsInFlight) calls in flight on one connection")
            }
            return nil
        }
        if let refusal {
            responder.fail(refusal, streaming: false)
            return
        }
        let call = IncomingCall(method: frame.method, payload: frame.payload, responder: responder)
        // The task is registered under the lock before it can finish and deregister itself.
        running.withLock { running in
            running[frame.callID] = Task { [weak self] in
                await handler(call)
                _ = self?.running.withLock { $0.removeValue(forKey: frame.callID) }
            }
        }
    }
}
