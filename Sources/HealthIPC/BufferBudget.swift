import Foundation
public import HealthWire
import Synchronization

/// The broker-wide bound on bytes buffered for peers — request frames read and not yet done
/// with, replies queued and not yet written — with a fair share per owner (an app).
///
/// Without it the only bound across apps was the connection count: 256 connections × (a 4 MiB
/// frame being read + 12 MiB of replies) and 64 calls × 4 MiB requests per app, GiBs in all.
///
/// The rules (`claimRequest`, `addReply`):
/// - A request frame is claimed when its length prefix arrives, before its body is buffered,
///   and held until its call has ended. It fits when its owner stays within `perOwner` and the
///   broker within `total`; otherwise the connection's reader waits (backpressure: nothing more
///   is read from that peer, whose own sends then block) until enough is released. So an app at
///   its share stalls only its own connections.
/// - Every owner may always hold `floor` bytes even when the broker is at `total`: a small call
///   of an app that holds (almost) nothing never waits for others' big ones. The broker's bound
///   is therefore `total` + `floor` × owners (owners are bounded by the connection limit).
/// - Replies cannot wait here (their call has already done its work): they are counted, so an
///   owner whose replies pile up gets no more requests read, and an owner whose unread replies
///   pass `perOwner` has the connection that queued the last one closed (`OutboundQueue`), as a
///   connection's own overflow is.
///
/// - A request is claimed at `requestBytesPerFrameByte` times its frame's length when its prefix
///   arrives: the frame, and room for what unpacking it takes. Unpacking then claims what it
///   really takes (`BufferClaim.claimUnpacked`, from `UnpackArena` as it grows), counted
///   `unpackedChargePerByte` times for the Swift values built from it, first from that room and
///   beyond it from the owner's share — without waiting (unpacking runs on shared threads): an
///   unpack the share cannot cover fails, and the call is refused naming the share. All of it is
///   held until the call ends, when its decoded form is gone.
///
/// Every claim is released exactly once (`BufferClaim`), on the call's end, the frame's
/// handling, or the connection's end — mid-frame and mid-reply included.
public final class BufferBudget: Sendable {
    public let total: Int
    public let perOwner: Int
    public let floor: Int
    public let requestBytesPerFrameByte: Int
    public let unpackedChargePerByte: Int

    private struct Usage {
        var requests = 0
        var replies = 0
        var bytes: Int { requests + replies }
    }

    private struct State {
        var owners: [String: Usage] = [:]
        var inUse = 0
    }

    /// NSCondition rather than a Mutex: readers wait on it for bytes to be released.
    private let condition = NSCondition()
    nonisolated(unsafe) private var state = State()

    public init(total: Int, perOwner: Int, floor: Int, requestBytesPerFrameByte: Int = 1, unpackedChargePerByte: Int = 1) {
        self.total = max(1, total)
        self.perOwner = max(1, min(perOwner, total))
        self.floor = max(0, min(floor, perOwner))
        self.requestBytesPerFrameByte = max(1, requestBytesPerFrameByte)
        self.unpackedChargePerByte = max(1, unpackedChargePerByte)
    }

    /// Bytes buffered now, over all owners.
    public var inUse: Int { locked { $0.inUse } }

    /// Bytes buffered now for `owner`.
    public func inUse(by owner: String) -> Int { locked { $0.owners[owner]?.bytes ?? 0 } }

    /// Whether `bytes` more of requests would fit for `owner` now.
    private func fits(_ bytes: Int, for owner: String, in state: State) -> Bool {
        let held = state.owners[owner]?.bytes ?? 0
        guard held + bytes <= perOwner else { return false }
        return state.inUse + bytes <= total || held + bytes <= floor
    }

    /// Claims a request frame of `frameBytes` for `owner` (`requestBytesPerFrameByte` times as
    /// many bytes), waiting while they do not fit. Returns nil
    /// — having claimed nothing — once `stop()` is true (the connection ended meanwhile), or
    /// at once when `bytes` can never fit (more than the owner's share).
    ///
    /// Blocks: only for a connection's reader thread, which owns nothing else while it waits.
    public func claimRequest(_ frameBytes: Int, for owner: String, stop: () -> Bool) -> BufferClaim? {
        let (bytes, overflow) = frameBytes.multipliedReportingOverflow(by: requestBytesPerFrameByte)
        guard !overflow, bytes <= perOwner else { return nil }
        condition.lock()
        defer { condition.unlock() }
        while !fits(bytes, for: owner, in: state) {
            if stop() { return nil }
            // Woken by every release; the timed wait re-checks `stop`, which a closing
            // connection sets without knowing this budget.
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.25))
        }
        state.owners[owner, default: Usage()].requests += bytes
        state.inUse += bytes
        return BufferClaim(budget: self, owner: owner, bytes: bytes, frameBytes: frameBytes)
    }

    /// Claims `bytes` more for a request of `owner` already admitted (its unpacked form), if they
    /// fit now; never waits. False, having claimed nothing, when they do not.
    fileprivate func claimMore(_ bytes: Int, for owner: String) -> Bool {
        locked { state in
            guard fits(bytes, for: owner, in: state) else { return false }
            state.owners[owner, default: Usage()].requests += bytes
            state.inUse += bytes
            return true
        }
    }

    /// The limit an unpack refused by `claimMore` passed, as its app is told it.
    fileprivate var unpackedLimitDescription: String {
        "the memory healthd lends one app's requests: \(perOwner >> 20) MiB over all its calls in flight "
            + "(the frames and what they unpack to, counted \(unpackedChargePerByte)× for the values built from them; "
            + "\(total >> 20) MiB for all apps together); split the request, or send fewer at once"
    }

    /// Counts `bytes` of a reply queued for `owner`. Returns whether the owner's unread replies
    /// now pass its share (the caller then closes the connection, which releases what it had
    /// queued). The caller releases exactly what it counted (`releaseReplies`): `OutboundQueue`
    /// keeps that count as its buffered bytes.
    public func addReply(_ bytes: Int, for owner: String) -> Bool {
        locked { state in
            state.owners[owner, default: Usage()].replies += bytes
            state.inUse += bytes
            return state.owners[owner, default: Usage()].replies > perOwner
        }
    }

    /// Reply bytes of `owner` written, or dropped with their connection.
    public func releaseReplies(_ bytes: Int, of owner: String) {
        release(bytes, of: owner, request: false)
    }

    fileprivate func releaseRequest(_ bytes: Int, of owner: String) {
        release(bytes, of: owner, request: true)
    }

    private func release(_ bytes: Int, of owner: String, request: Bool) {
        guard bytes > 0 else { return }
        condition.lock()
        var usage = state.owners[owner] ?? Usage()
        if request { usage.requests -= bytes } else { usage.replies -= bytes }
        state.owners[owner] = usage.bytes != 0 ? usage : nil
        state.inUse -= bytes
        // Readers of every owner may be waiting for the broker's total.
        condition.broadcast()
        condition.unlock()
    }

    private func locked<T>(_ body: (inout State) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(&state)
    }
}

/// One request frame's bytes claimed from a `BufferBudget`, and what its unpacking claimed since
/// (`claimUnpacked`). Released once whatever the number of callers: a call ended both by its
/// CANCEL and by its connection's end gives its bytes back once. A claim dropped without
/// `release` (a path that forgot it) is released when it is freed, so a lost claim cannot hold
/// its owner's share for the life of the broker; the explicit release is for promptness.
///
/// It is the call's `UnpackMemoryAccount`: the server binds it (`UnpackMemory.account`) around
/// the call's handler, so every unpack the call makes is charged here.
public final class BufferClaim: UnpackMemoryAccount, Sendable {
    private let budget: BufferBudget
    private let owner: String

    private struct State {
        var released = false
        /// Bytes held from the budget.
        var bytes: Int
        /// Of those, the room claimed with the frame for its unpacked form not yet used.
        var room: Int
    }

    private let state: Mutex<State>

    fileprivate init(budget: BufferBudget, owner: String, bytes: Int, frameBytes: Int) {
        self.budget = budget
        self.owner = owner
        state = Mutex(State(bytes: bytes, room: max(0, bytes - frameBytes)))
    }

    deinit {
        release()
    }

    /// Bytes held now: the frame's claim and what its unpacking claimed beyond it.
    public var bytes: Int { state.withLock { $0.bytes } }

    public func claimUnpacked(_ unpacked: Int) -> Bool {
        let (charge, overflow) = unpacked.multipliedReportingOverflow(by: budget.unpackedChargePerByte)
        guard !overflow else { return false }
        return state.withLock { state in
            // A call already ended decodes nothing more on its share.
            guard !state.released else { return false }
            let fromRoom = min(state.room, charge)
            let beyond = charge - fromRoom
            guard beyond == 0 || budget.claimMore(beyond, for: owner) else { return false }
            state.room -= fromRoom
            state.bytes += beyond
            return true
        }
    }

    public var unpackedLimitDescription: String { budget.unpackedLimitDescription }

    public func release() {
        let held: Int? = state.withLock { state in
            guard !state.released else { return nil }
            state.released = true
            return state.bytes
        }
        if let held { budget.releaseRequest(held, of: owner) }
    }
}

/// One owner's side of a `BufferBudget`, as a connection holds it.
public struct BufferAccount: Sendable {
    public let budget: BufferBudget
    public let owner: String

    public init(budget: BufferBudget, owner: String) {
        self.budget = budget
        self.owner = owner
    }
}
