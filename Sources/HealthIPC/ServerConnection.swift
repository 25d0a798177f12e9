import Foundation
import Glibc
public import HealthWire
import Synchronization

/// One incoming call as the server's handler sees it.
public struct IncomingCall: Sendable {
    public let method: String
    public let payload: [UInt8]
    public let responder: CallResponder
    /// No other call of this connection was in flight when this one arrived: answering it on the
    /// reader thread, even blocking there for a commit, keeps no call of this peer waiting that
    /// could have run alongside it (`ServerConnection.serve`'s `answerNow`).
    public var aloneOnConnection = false
}

/// How a handler answers its call. A unary handler calls `respond` or `fail` once; a streaming
/// handler calls `send` any number of times and then `finish`. Anything after the first final
/// answer is dropped, so a handler racing a CANCEL cannot write a second ending.
///
/// The one flow-control choke point of every stream (ARCHITECTURE.md, "Flow control"): a stream
/// message is queued only once everything queued before it on the connection went to the socket
/// (`handOffBytes`). Until then its handler waits — suspended (`send`), or on its own thread
/// (`sendFromSynchronousContext`) — having given back what it holds that other apps need
/// (`whileWaitingForPeer`: a large query's slot); it never buffers ahead. So a client that stops
/// reading holds, in healthd, the unsent rest of one message per stream, and a message is
/// checked against the app's grants (`ifStillCurrent`) at the moment it is handed over, not when
/// an earlier one was: a revocation while the client stalls reaches every message not yet begun.
/// Frames are written by the connection's writer thread (`OutboundQueue`).
public final class CallResponder: Sendable {
    public let callID: UInt64
    private let outbound: OutboundQueue
    private let answered = Mutex(false)
    /// Frees the call id (and the call's budgets) — before the final frame is queued, so a peer
    /// that reuses the id as soon as it sees the answer never finds it still in use.
    private let onEnd: @Sendable () -> Void

    private let unreadRepliesTimeout: Duration
    private let parkGrace: Duration
    private let answerReadDeadline: Duration
    /// Time this call has waited for its peer while parked, over its whole answer (only calls
    /// with `PeerWaitHooks` park): once it reaches `answerReadDeadline` the call ends.
    private let waitedForPeer = Mutex<Duration>(.zero)
    /// Set by the broker for a call that holds shared resources (a large query's slot).
    private let peerWait = Mutex<(any PeerWaitHooks)?>(nil)
    /// Told of each stream message handed over (`onEachMessageHanded`).
    private let messageHanded = Mutex<(@Sendable () -> Void)?>(nil)
    /// A stream message was handed over since the call last took its turn (`takeTurnIfHanded`).
    private let handedSinceTurn = Mutex(false)
    /// For a call without `PeerWaitHooks` whose store visits hold shared resources (a
    /// long-running query's): whether another peer's call waits for them (`takesTurns(when:)`).
    private let visitTurnDue = Mutex<(@Sendable () -> Bool)?>(nil)

    /// What may be buffered on the connection for a stream message to be queued: nothing. The
    /// message before it (of any call) has been handed to the socket whole.
    static let handOffBytes = 0

    init(callID: UInt64, outbound: OutboundQueue, unreadRepliesTimeout: Duration = .seconds(10),
         parkGrace: Duration = .milliseconds(100), answerReadDeadline: Duration = .seconds(60),
         onEnd: @escaping @Sendable () -> Void = {}) {
        self.callID = callID
        self.outbound = outbound
        self.unreadRepliesTimeout = unreadRepliesTimeout
        self.parkGrace = parkGrace
        self.answerReadDeadline = answerReadDeadline
        self.onEnd = onEnd
    }

    public func respond(_ payload: [UInt8]) {
        end(.response(callID, payload))
    }

    /// Answers with a descriptor; the responder keeps its own duplicate until it is written, so
    /// the caller may close its copy at once.
    public func respond(_ payload: [UInt8], passing descriptor: Int32) {
        end(.response(callID, payload), passing: descriptor)
    }

    public func fail(_ status: RPCStatus, streaming: Bool) {
        end(.failure(callID, status, streaming: streaming))
    }

    /// Sends one stream message once everything before it went to the socket (`handOffBytes`),
    /// waiting suspended until then. Throws `CancellationError` once the call has ended
    /// (cancelled, or the connection is gone), so a streaming handler stops its work. While it
    /// waits, the call's shared resources are given back (`whileWaitingForPeer`).
    public func send(_ payload: [UInt8]) async throws {
        _ = try await send(payload) { true }
    }

    /// `send` for a frame computed from a view of the store that may have gone stale while the
    /// call waited for its peer (the broker's `StreamVisibility`): once the frame can be handed
    /// over, and only then, `stillCurrent` decides. False drops the frame — nothing is queued —
    /// and returns false, for the caller to compute it again; true queues it with no wait in between.
    public func send(_ payload: [UInt8], ifStillCurrent stillCurrent: () throws -> Bool) async throws -> Bool {
        let frame = try streamFrame(payload)
        while true {
            try await waitUntilReady()
            switch try offer(frame: frame, ifStillCurrent: stillCurrent) {
            case .sent: return true
            case .stale: return false
            case .busy: continue  // another call's frame went first
            }
        }
    }

    /// What `offer` did.
    public enum Offer: Sendable {
        case sent
        /// `stillCurrent` said no: nothing was queued.
        case stale
        /// The connection still had something to hand to the socket: nothing was queued (wait
        /// with `waitUntilReady`, outside the store, and compute again).
        case busy
    }

    /// Queues one stream message if it can be handed over now, never waiting: for a handler that
    /// computes inside the store, which must not wait for a peer there (a lock or key change
    /// drains the store). It waits with `waitUntilReady` first, outside, and computes only then.
    public func offer(_ payload: [UInt8], ifStillCurrent stillCurrent: () throws -> Bool = { true }) throws -> Offer {
        try offer(frame: streamFrame(payload), ifStillCurrent: stillCurrent)
    }

    /// Whether a stream message offered now would be handed over at once, and the call would
    /// keep its shared resources (no other peer's call waits its turn for them since this one
    /// handed its last message). A hint: for a handler that reads more only while its peer keeps
    /// up and its turn lasts, and otherwise leaves the store to wait (`waitUntilReady`, which
    /// takes the turn) or ends its store visit (a long-running query's, whose next visit queues).
    public var isReady: Bool {
        guard outbound.isBuffered(atMost: Self.handOffBytes) else { return false }
        guard handedSinceTurn.withLock({ $0 }) else { return true }
        if let hooks = peerWait.withLock({ $0 }) { return !hooks.turnDue }
        return !(visitTurnDue.withLock { $0 }?() ?? false)
    }

    /// For a long-running query: `due` tells whether another app's query waits for the slot its
    /// store visits take, so that a visit streaming several messages (an anchored delivery) ends
    /// after a message when it does (`isReady`), and its next visit queues in turn.
    public func takesTurns(when due: @escaping @Sendable () -> Bool) {
        visitTurnDue.withLock { $0 = due }
    }

    /// The turn rule's place in every stream (`PeerWaitHooks.takeTurn`): after a message was
    /// handed and before the next is — every producer waits here (`waitUntilReady`) before it
    /// hands a message, directly or through `send`, and one that reads inside the store first
    /// leaves it when `isReady` says the turn is due — the call gives its shared resources to
    /// another peer's waiting call, if one waits, and takes them back in turn. Whether the turn
    /// is due is the broker's rule (`QueryScheduler.takeTurn`).
    private func takeTurnIfHanded(_ hooks: (any PeerWaitHooks)?) -> Bool {
        handedSinceTurn.withLock { handed in
            defer { handed = false }
            return handed
        } && hooks != nil
    }

    /// Returns once a stream message may be handed over (`handOffBytes`), suspended meanwhile.
    /// A call holding shared resources first waits `parkGrace` holding them — a reading peer
    /// takes what is queued within moments, and a query parked between every two of its
    /// messages would be evicted when three read at once — and then gives them back for the
    /// rest of the wait (`whileWaitingForPeer`). Parked, it waits at most `unreadRepliesTimeout`
    /// (then the call ends, as `sendFromSynchronousContext`'s does) and at most what is left of
    /// `answerReadDeadline` (then it ends with `answerDeadlineStatus`).
    public func waitUntilReady() async throws {
        if Task.isCancelled || answered.withLock({ $0 }) { throw CancellationError() }
        let hooks = peerWait.withLock { $0 }
        if takeTurnIfHanded(hooks), let hooks { try await hooks.takeTurnSuspending() }
        guard let hooks else {
            _ = try await outbound.waitUntilBuffered(atMost: Self.handOffBytes)
            return
        }
        if try await outbound.waitUntilBuffered(atMost: Self.handOffBytes, within: parkGrace) { return }
        let wait = try nextParkedWait()
        // The wait runs as a task of its own so that an eviction (`interrupt`) can end it.
        let outbound = outbound
        let waiting = Task { try await outbound.waitUntilBuffered(atMost: Self.handOffBytes, within: wait.limit) }
        let parkedAt = ContinuousClock.now
        hooks.park { waiting.cancel() }
        let waited = await withTaskCancellationHandler { await waiting.result } onCancel: { waiting.cancel() }
        waitedForPeer.withLock { $0 += ContinuousClock.now - parkedAt }
        let ready = (try? waited.get()) == true
        try await hooks.unparkSuspending(goingOn: ready && !answered.withLock({ $0 }))
        guard try waited.get() else { throw wait.endsAnswer ? answerDeadlineStatus : CancellationError() }
    }

    /// The next parked wait: at most `unreadRepliesTimeout`, and at most what is left of the
    /// answer-read deadline (`endsAnswer`: the deadline is what ends it). Throws
    /// `answerDeadlineStatus` when nothing is left.
    private func nextParkedWait() throws -> (limit: Duration, endsAnswer: Bool) {
        let left = answerReadDeadline - waitedForPeer.withLock { $0 }
        guard left > .zero else { throw answerDeadlineStatus }
        return left <= unreadRepliesTimeout ? (left, true) : (unreadRepliesTimeout, false)
    }

    /// What a large query ends with when its client took longer than `answerReadDeadline`, in
    /// all, to read what it was sent: the limit, and what the app can do. Its slot, store reader,
    /// thread and read transaction are released as the call ends; the status follows what the
    /// client has still to read.
    var answerDeadlineStatus: RPCStatus {
        RPCStatus(.resourceExhausted, "this answer waited more than \(answerReadDeadline.components.seconds) s in all for the app to read it "
                  + "(healthd's answer-read deadline); read a query's results as they arrive, or narrow it with a predicate or a limit",
                  healthKitCode: .errorDataSizeExceeded)
    }

    /// The frame of one stream message. A message too large for a frame ends the call instead
    /// (`oversized`) and throws its status.
    private func streamFrame(_ payload: [UInt8]) throws -> [UInt8] {
        let frame = FrameCodec.encode(Frame(callID: callID, kind: .streamMessage, payload: payload))
        if let refusal = Self.oversized(frame) {
            end(.failure(callID, refusal, streaming: true))
            throw refusal
        }
        return frame
    }

    /// Checks and queues `frame` if nothing is buffered ahead of it, in that order, never waiting;
    /// `CancellationError` once the call has ended.
    private func offer(frame: [UInt8], ifStillCurrent stillCurrent: () throws -> Bool) throws -> Offer {
        if answered.withLock({ $0 }) { throw CancellationError() }
        guard outbound.isBuffered(atMost: Self.handOffBytes) else {
            if outbound.isClosing { throw CancellationError() }
            return .busy
        }
        guard try stillCurrent() else { return .stale }
        switch outbound.append(frame, ifBufferedAtMost: Self.handOffBytes) {
        case .queued:
            messageHanded.withLock { $0 }?()
            handedSinceTurn.withLock { $0 = true }
            return .sent
        case .busy: return .busy
        case .closed: throw CancellationError()
        }
    }

    /// The one check that no frame leaves larger than a peer accepts (`WireLimits.maxFrameBytes`,
    /// length prefix excluded). Answers are cut to fit where they are built (by count and by
    /// `WireLimits.resultBatchBytes`); this is the backstop should one path forget: the peer
    /// would refuse the frame and drop its whole connection, every call on it with this one.
    /// Instead only this call ends, RESOURCE_EXHAUSTED, which the SDK raises as
    /// `errorDataSizeExceeded`.
    static func oversized(_ encodedFrame: [UInt8]) -> RPCStatus? {
        let length = encodedFrame.count - FrameCodec.lengthPrefixBytes
        guard length > WireLimits.maxFrameBytes else { return nil }
        return RPCStatus(.resourceExhausted, "healthd's answer of \(length) bytes is over the \(WireLimits.maxFrameBytes)-byte frame limit; "
                         + "narrow the query (a predicate or a limit), and report this: answers are meant to be cut to fit",
                         healthKitCode: .errorDataSizeExceeded)
    }

    /// Runs `hook` each time a stream message of this call is queued for its peer: the broker's
    /// per-statement budget counts a streaming statement's CPU time between two messages.
    public func onEachMessageHanded(_ hook: @escaping @Sendable () -> Void) {
        messageHanded.withLock { $0 = hook }
    }

    /// Gives `hooks` what this call holds while it waits for its peer (`sendFromSynchronousContext`).
    public func whileWaitingForPeer(_ hooks: any PeerWaitHooks) {
        peerWait.withLock { $0 = hooks }
    }

    /// `send` for a handler that cannot suspend because it streams from inside a synchronous
    /// store callback: blocks its thread until the frame can be handed over, at most
    /// `unreadRepliesTimeout`, then ends the call with `CancellationError`. While it blocks, the
    /// call's shared resources are given back (`whileWaitingForPeer`); an eviction meanwhile
    /// ends the call with the status the hooks throw.
    public func sendFromSynchronousContext(_ payload: [UInt8]) throws {
        _ = try sendFromSynchronousContext(payload) { true }
    }

    /// `sendFromSynchronousContext` with `stillCurrent` deciding once the frame can be handed
    /// over, as `send(_:ifStillCurrent:)` does: false drops the frame and returns false.
    public func sendFromSynchronousContext(_ payload: [UInt8], ifStillCurrent stillCurrent: () throws -> Bool) throws -> Bool {
        let frame = try streamFrame(payload)
        while true {
            try waitUntilReadyBlocking()
            switch try offer(frame: frame, ifStillCurrent: stillCurrent) {
            case .sent: return true
            case .stale: return false
            case .busy: continue
            }
        }
    }

    private func waitUntilReadyBlocking() throws {
        if Task.isCancelled || answered.withLock({ $0 }) { throw CancellationError() }
        let turnHooks = peerWait.withLock { $0 }
        if takeTurnIfHanded(turnHooks), let turnHooks { try turnHooks.takeTurn() }
        if let hooks = turnHooks {
            // As `waitUntilReady`: a moment holding the slot, then parked.
            if outbound.waitUntilBufferedBlocking(atMost: Self.handOffBytes, timeout: parkGrace) { return }
            if outbound.isClosing { throw CancellationError() }
            let wait = try nextParkedWait()
            let wake = DispatchSemaphore(value: 0)
            let parkedAt = ContinuousClock.now
            hooks.park { wake.signal() }
            let ready = outbound.waitUntilBufferedBlocking(atMost: Self.handOffBytes, timeout: wait.limit, semaphore: wake)
            waitedForPeer.withLock { $0 += ContinuousClock.now - parkedAt }
            try hooks.unpark(goingOn: ready && !answered.withLock({ $0 }))
            guard ready else { throw wait.endsAnswer && !outbound.isClosing ? answerDeadlineStatus : CancellationError() }
        } else if !outbound.waitUntilBufferedBlocking(atMost: Self.handOffBytes, timeout: unreadRepliesTimeout) {
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
        onEnd()
        var encoded = FrameCodec.encode(frame)
        var descriptor = descriptor
        if let refusal = Self.oversized(encoded) {
            encoded = FrameCodec.encode(.failure(callID, refusal, streaming: frame.kind != .response))
            descriptor = -1
        }
        outbound.append(encoded, passing: descriptor)
    }
}

/// The server side of one connection: reads frames, enforces the per-connection limits, starts
/// a task per call, and routes CANCEL to it. What a method does — and whether this peer may call
/// it at all — is the `handler`'s business (the broker's method table), not this type's.
///
/// Two threads of its own: the caller's, reading (it may block: in `recvmsg`, or paused while
/// the peer leaves replies unread), and the writer's (`OutboundQueue`). Handlers run as tasks
/// on the shared pool and never block it.
public final class ServerConnection: Sendable {
    public let connection: FrameConnection
    private let limits: ConnectionLimits
    private let admission: CallAdmission
    private let outbound: OutboundQueue
    /// The peer's share of the broker's buffer bound, or nil (the manager, tests).
    private let buffers: BufferAccount?

    private struct Running {
        /// Tells this call apart from a later one that reuses its id.
        let token: UInt64
        let responder: CallResponder
        let release: @Sendable () -> Void
        var task: Task<Void, Never>?
    }

    private struct Calls {
        var running: [UInt64: Running] = [:]
        var nextToken: UInt64 = 0
        /// Set by `end(with:)`: no call starts from then on.
        var ending: RPCStatus?
        /// A call is being answered on the reader thread (`answerNow`: a grant lookup, or a save
        /// committing there). It has no task and is not in `running`, yet `end(with:)` must wait
        /// for it like the others: its caller changes the store next (removing the app and its
        /// data), and a save of the old identity committing after that would outlive it.
        var answeringOnReader = false
        /// `end(with:)` calls waiting for that answer to finish.
        var readerWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let calls = Mutex(Calls())

    /// `buffers`: the account whose share bounds what this peer's requests and replies may hold
    /// buffered (`BufferBudget`); nil for an unbounded peer.
    public init(fd: Int32, limits: ConnectionLimits = ConnectionLimits(),
                admission: @escaping CallAdmission = { _ in .success({}) }, buffers: BufferAccount? = nil) {
        connection = FrameConnection(fd: fd)
        self.limits = limits
        self.admission = admission
        self.buffers = buffers
        outbound = OutboundQueue(connection: connection, pauseBytes: limits.outboundPauseBytes,
                                 maxBytes: limits.outboundMaxBytes, account: buffers)
    }

    public convenience init(fd: Int32, maxCallsInFlight: Int) {
        self.init(fd: fd, limits: ConnectionLimits(callsInFlight: maxCallsInFlight))
    }

    /// Serves until the peer disconnects or violates the protocol; then cancels its calls.
    /// Blocks the calling thread. Returns why the connection ended (nil: the peer closed it).
    ///
    /// `answerNow` may answer a call on this (the reading) thread, without a task: it returns
    /// true when it did, false — having answered nothing — to have `handler` run it as a task.
    /// It must never wait on a peer, nor for long: while it runs, this peer's next frames wait.
    /// Only a call `aloneOnConnection` may wait there for a store commit (a save).
    public func serve(answerNow: @escaping @Sendable (IncomingCall) -> Bool = { _ in false },
                      _ handler: @escaping @Sendable (IncomingCall) async -> Void) -> FrameConnection.ReadFailure? {
        // The claim of the frame being read, from its prefix until the frame is handled (which
        // hands it on). At most one: `readFrames` asks for a prefix only once the frame before it
        // was handled, so the reader never waits for room while it holds a frame of its own
        // that only its handling would give back. Reader thread only.
        var reading: BufferClaim?
        let buffers = buffers
        let connection = connection
        let failure = connection.readFrames(incompleteFrameTimeout: limits.incompleteFrameTimeout, admitBody: { length in
            // The one place request bytes are claimed. Waiting here stops reading this peer
            // only: other connections have readers of their own. The wait ends with the
            // connection — closed here, or by a peer that left meanwhile (whose end of file this
            // reader, not reading, would otherwise see only once room was made).
            guard let buffers else { return true }
            let stop = { connection.isClosed || connection.peerHasLeft }
            guard let claim = buffers.budget.claimRequest(length, for: buffers.owner, stop: stop) else {
                return false
            }
            reading = claim
            return true
        }) { frame in
            let claim = reading
            reading = nil
            switch frame.kind {
            case .request:
                // A peer leaving replies unread gets no more calls served until it reads.
                guard outbound.waitForReaderTurn() else {
                    claim?.release()
                    return
                }
                // The call holds the claim until it ends (`start` releases it on every path).
                start(frame, claim, answerNow, handler)
            case .cancel:
                defer { claim?.release() }
                let cancelled = calls.withLock { $0.running[frame.callID] }
                cancelled?.task?.cancel()
                cancelled?.responder.fail(RPCStatus(.cancelled, "cancelled by the client"), streaming: true)
            case .response, .streamMessage, .endOfStream:
                claim?.release()  // clients do not send these; ignoring them keeps the stream in sync
            }
        }
        // A frame cut off midway (the peer left, a timeout, a frame that did not decode) gives
        // its bytes back here.
        reading?.release()
        if let failure {
            // Tell the peer why before closing; call id 0 marks a connection-level status.
            let code: StatusCode = switch failure {
            case .framing(.frameTooLarge), .framing(.notAdmitted), .incompleteFrameTimedOut: .resourceExhausted
            default: .invalidArgument
            }
            outbound.append(FrameCodec.encode(Frame(callID: 0, kind: .endOfStream, status: RPCStatus(code, "\(failure)"))))
        }
        outbound.closeWhenDrained()
        let ended = calls.withLock { calls in
            defer { calls.running.removeAll() }
            return Array(calls.running.values)
        }
        for call in ended {
            call.task?.cancel()
            call.release()
        }
        return failure
    }

    private func start(_ frame: Frame, _ claim: BufferClaim?, _ answerNow: (IncomingCall) -> Bool,
                       _ handler: @escaping @Sendable (IncomingCall) async -> Void) {
        let id = frame.callID
        let refusal: RPCStatus? = calls.withLock { calls in
            if let ending = calls.ending { return ending }
            if id == 0 { return RPCStatus(.invalidArgument, "call id 0 is reserved") }
            if calls.running[id] != nil {
                return RPCStatus(.alreadyExists, "call id \(id) is still in flight on this connection; use a new id per call")
            }
            if calls.running.count >= limits.callsInFlight {
                return RPCStatus(.resourceExhausted, "at most \(limits.callsInFlight) calls in flight per connection")
            }
            return nil
        }
        if let refusal {
            claim?.release()
            CallResponder(callID: id, outbound: outbound).fail(refusal, streaming: false)
            return
        }
        let release: @Sendable () -> Void
        switch admission(frame.method) {
        case let .success(admitted):
            release = {
                admitted()
                claim?.release()
            }
        case let .failure(status):
            claim?.release()
            CallResponder(callID: id, outbound: outbound).fail(status, streaming: false)
            return
        }
        // Answered on this thread when it can be (after every limit above): never registered,
        // so nothing cancels it midway — a CANCEL for it is read only once it is answered — and
        // its id and budget are free when its answer is queued.
        let immediate = CallResponder(callID: id, outbound: outbound, unreadRepliesTimeout: limits.unreadRepliesTimeout,
                                      parkGrace: limits.peerReadGrace, answerReadDeadline: limits.answerReadDeadline, onEnd: release)
        // Marked under the lock `end(with:)` sets `ending` under: a call answered here either is
        // waited for by it or never starts (the peer was already told the connection's status).
        let alone: Bool? = calls.withLock { calls in
            guard calls.ending == nil else { return nil }
            calls.answeringOnReader = true
            return calls.running.isEmpty
        }
        guard let alone else { return release() }
        // Whatever the call unpacks is charged to its claim, on either path (`UnpackMemory`).
        let account: (any UnpackMemoryAccount)? = claim
        let answered = UnpackMemory.$account.withValue(account) {
            answerNow(IncomingCall(method: frame.method, payload: frame.payload, responder: immediate, aloneOnConnection: alone))
        }
        let waiters = calls.withLock { calls in
            defer {
                calls.answeringOnReader = false
                calls.readerWaiters = []
            }
            return calls.readerWaiters
        }
        for waiter in waiters { waiter.resume() }
        if answered { return }
        let started: Bool = calls.withLock { calls in
            // Checked again under the lock that registers the call: `end(with:)` takes every
            // running call under it, so a call either is among them or never starts.
            guard calls.ending == nil else { return false }
            let token = calls.nextToken
            calls.nextToken += 1
            let responder = CallResponder(callID: id, outbound: outbound, unreadRepliesTimeout: limits.unreadRepliesTimeout,
                                          parkGrace: limits.peerReadGrace, answerReadDeadline: limits.answerReadDeadline) {
                [weak self] in self?.finish(id, token)
            }
            calls.running[id] = Running(token: token, responder: responder, release: release)
            let call = IncomingCall(method: frame.method, payload: frame.payload, responder: responder)
            // Registered under the lock before the task can finish and deregister itself.
            calls.running[id]?.task = Task { [weak self] in
                await UnpackMemory.$account.withValue(account) { await handler(call) }
                self?.finish(id, token)
            }
            return true
        }
        if !started { release() }
    }

    /// Ends the connection from the server's side, because the identity it was served under is
    /// gone (the app was removed, or may no longer connect this way): the peer is told `status`
    /// as the connection's last word (call id 0, so every call it has open fails with it), no call
    /// starts from now on, every running call is cancelled, and the socket closes once the status
    /// is written. Returns once every call that was running has finished — those answered on the
    /// reader thread included (a save committing there) — or after `timeout`, false then, so the
    /// caller knows nothing the peer asked for is still under way.
    @discardableResult
    public func end(with status: RPCStatus, timeout: Duration = .seconds(10)) async -> Bool {
        let running: [Task<Void, Never>] = calls.withLock { calls in
            calls.ending = calls.ending ?? status
            return calls.running.values.compactMap(\.task)
        }
        outbound.append(FrameCodec.encode(Frame(callID: 0, kind: .endOfStream, status: status)))
        // The writer closes the socket after the status; the reader then sees end of file.
        outbound.closeWhenDrained()
        for task in running { task.cancel() }
        // Not a task group: awaiting a task's value ignores cancellation, so a group would wait
        // for the slowest call whatever the timeout. The first of the two resumes the caller.
        let answered = FirstAnswer()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let resume: @Sendable (Bool) -> Void = { finished in
                if answered.take() { continuation.resume(returning: finished) }
            }
            Task {
                for task in running { await task.value }
                await self.readerAnswerFinished()
                resume(true)
            }
            Task {
                try? await Task.sleep(for: timeout)
                resume(false)
            }
        }
    }

    /// Returns once no call is being answered on the reader thread. Called after `ending` is set,
    /// so none starts there afterwards.
    private func readerAnswerFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = calls.withLock { calls -> Bool in
                guard calls.answeringOnReader else { return true }
                calls.readerWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Deregisters one call, once: its id is free again and its budgets are released. A later
    /// call that reused the id has another token and is left alone.
    private func finish(_ id: UInt64, _ token: UInt64) {
        let ended = calls.withLock { calls -> Running? in
            guard calls.running[id]?.token == token else { return nil }
            return calls.running.removeValue(forKey: id)
        }
        ended?.release()
    }
}

/// True for the first `take()` only.
private final class FirstAnswer: Sendable {
    private let taken = Mutex(false)

    func take() -> Bool {
        taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }
}
