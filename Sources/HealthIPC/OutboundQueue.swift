import Dispatch
import Foundation
import Glibc
import Synchronization

/// The frames waiting to go out on one server connection, and the one thread that writes them.
///
/// Call handlers run on Swift's shared cooperative pool, a thread or two per core. A blocking
/// write there parks that thread as soon as one peer stops reading, and with it every other
/// app's calls and the manager's. So handlers only append here (never blocking), and the
/// connection's own writer thread does the blocking writes.
///
/// Bounded, per connection (`ConnectionLimits`):
/// - a stream message is queued only once everything queued before it went to the socket
///   (`append(_:ifBufferedAtMost:)` with `CallResponder.handOffBytes`; its handler waits in
///   `waitUntilBuffered`, suspended or on a thread of its own): healthd holds at most the unsent
///   rest of one message per stream, and each is checked against the app's grants when it is
///   handed over, not when an earlier one was;
/// - above `pauseBytes` buffered, the connection's reader stops taking new requests, so an app
///   that stops reading stalls only itself;
/// - a frame that would take the buffer past `maxBytes` closes the connection (its calls are
///   cancelled) instead of buffering more;
/// - a write that makes no progress for the socket's send timeout closes it too;
/// - with an `account`, buffered bytes also count against the app's share of the broker's
///   `BufferBudget` (added when a frame is queued, released as it is written or dropped at
///   close — `bufferedBytes` is that count), and a frame that takes the app's unread replies
///   past its share closes the connection like an overflow.
final class OutboundQueue: Sendable {
    fileprivate struct Entry {
        let bytes: [UInt8]
        /// A duplicate owned by the queue (closed once written), or -1.
        let descriptor: Int32
    }

    fileprivate struct Waiter {
        let atMost: Int
        /// Resumed with true once there is room, false when its time ran out.
        let continuation: CheckedContinuation<Bool, any Error>
    }

    fileprivate struct BlockedWaiter {
        let atMost: Int
        let semaphore: DispatchSemaphore
    }

    /// What `append(_:ifBufferedAtMost:)` did.
    enum Appended {
        case queued
        /// More than the limit was buffered: nothing was queued.
        case busy
        case closed
    }

    fileprivate struct State {
        var entries: [Entry] = []
        var head = 0
        var bufferedBytes = 0
        var closed = false
        /// Handlers suspended in `waitUntilBuffered`, each until at most `atMost` bytes are buffered.
        var waiters: [UInt64: Waiter] = [:]
        /// Handlers that cannot suspend (inside a store callback), blocked in `waitUntilBufferedBlocking`.
        var blockedWaiters: [BlockedWaiter] = []
        var nextWaiter: UInt64 = 0
        var readerPaused = false
        /// Close once everything queued is written (the connection's last status).
        var closeWhenEmpty = false
        /// A thread is writing to the socket (the writer thread, or an appender on the direct
        /// path): one at a time, so frames never interleave and leave in queue order.
        var writing = false
    }

    private let state = Mutex(State())
    private let connection: FrameConnection
    private let pauseBytes: Int
    private let maxBytes: Int
    private let account: BufferAccount?
    /// Signalled once per appended frame and at close.
    private let writerWake = DispatchSemaphore(value: 0)
    /// Signalled when a paused reader may go on (below `pauseBytes`, or closed).
    private let readerWake = DispatchSemaphore(value: 0)

    init(connection: FrameConnection, pauseBytes: Int, maxBytes: Int, account: BufferAccount? = nil) {
        self.connection = connection
        self.account = account
        self.pauseBytes = pauseBytes
        self.maxBytes = max(maxBytes, pauseBytes)
        let thread = Thread { [self] in runWriter() }
        thread.name = "healthd-writer"
        thread.start()
    }

    /// Queues one encoded frame. False if the connection is closed, or was just closed because
    /// this frame would have taken its buffer past `maxBytes`.
    ///
    /// The direct path: when nothing is queued or being written, the appending thread writes the
    /// frame itself with a write that never waits (`writeWithoutWaiting`), and only what the
    /// socket did not take goes to the writer thread. A short reply to a reading peer — most
    /// replies — then leaves without waking the writer thread (a context switch each way, most
    /// of a short call's cost on one CPU); a peer that is not reading still costs the appender
    /// nothing, since the write returns at once with what fitted.
    @discardableResult
    func append(_ bytes: [UInt8], passing descriptor: Int32 = -1) -> Bool {
        append(bytes, passing: descriptor, ifBufferedAtMost: nil) == .queued
    }

    /// Queues one encoded frame only if at most `limit` bytes are buffered now (0: nothing waits
    /// to be handed to the socket, so the frame goes there at once); `busy`, queuing nothing,
    /// otherwise. For stream messages (`CallResponder`), which wait for that and then check that
    /// what they carry is still the app's to see: decided under the lock that queues the frame,
    /// so no other frame slips in between and the check is that of the hand-over.
    func append(_ bytes: [UInt8], ifBufferedAtMost limit: Int) -> Appended {
        append(bytes, passing: -1, ifBufferedAtMost: limit)
    }

    private func append(_ bytes: [UInt8], passing descriptor: Int32, ifBufferedAtMost limit: Int?) -> Appended {
        let owned = descriptor >= 0 ? fcntl(descriptor, F_DUPFD_CLOEXEC, 0) : -1
        enum Outcome { case queued, writeNow, closing, overflow, busy }
        let outcome: Outcome = state.withLock { state in
            if state.closed || state.closeWhenEmpty { return .closing }
            if let limit, state.bufferedBytes > limit { return .busy }
            guard state.bufferedBytes + bytes.count <= maxBytes else { return .overflow }
            if let account, account.budget.addReply(bytes.count, for: account.owner) {
                account.budget.releaseReplies(bytes.count, of: account.owner)
                return .overflow
            }
            if !state.writing, state.head == state.entries.count {
                state.writing = true
                state.bufferedBytes += bytes.count  // counted like a queued frame until written
                return .writeNow
            }
            state.entries.append(Entry(bytes: bytes, descriptor: owned))
            state.bufferedBytes += bytes.count
            return .queued
        }
        switch outcome {
        case .queued:
            writerWake.signal()
            return .queued
        case .writeNow:
            return writeDirectly(bytes, passing: owned) ? .queued : .closed
        case .busy:
            if owned >= 0 { Glibc.close(owned) }
            return .busy
        case .closing, .overflow:
            if owned >= 0 { Glibc.close(owned) }
            if outcome == .overflow { close() }
            return .closed
        }
    }

    /// The direct path of `append`, holding the `writing` claim: writes what the socket takes
    /// now and queues the rest, ahead of anything appended meanwhile, for the writer thread.
    private func writeDirectly(_ bytes: [UInt8], passing owned: Int32) -> Bool {
        let sent: Int
        do {
            sent = try connection.writeWithoutWaiting(bytes, passing: owned)
        } catch {
            // The peer is gone: its calls end here, as on the writer thread.
            if owned >= 0 { Glibc.close(owned) }
            state.withLock { $0.writing = false }
            close()
            return false
        }
        // The descriptor went with the first byte; if nothing was sent it waits with the rest.
        let keptDescriptor = sent == 0 ? owned : -1
        if sent > 0, owned >= 0 { Glibc.close(owned) }
        let (wakeWriter, released) = state.withLock { state -> (Bool, Released) in
            state.writing = false
            if state.closed {
                if keptDescriptor >= 0 { Glibc.close(keptDescriptor) }
                return (false, Released())
            }
            if sent < bytes.count {
                let rest = sent == 0 ? bytes : Array(bytes[sent...])
                state.entries.insert(Entry(bytes: rest, descriptor: keptDescriptor), at: state.head)
            }
            let released = state.written(sent, pauseBytes: pauseBytes, account: account)
            return (state.head < state.entries.count || state.closeWhenEmpty, released)
        }
        released.resume(readerWake)
        if wakeWriter { writerWake.signal() }
        return true
    }

    /// Who may go on once buffered bytes fell to the pause threshold: suspended and blocked
    /// streaming handlers, and a paused reader.
    fileprivate struct Released {
        var waiters: [CheckedContinuation<Bool, any Error>] = []
        var wakeReader = false

        func resume(_ readerWake: DispatchSemaphore) {
            for waiter in waiters { waiter.resume(returning: true) }
            if wakeReader { readerWake.signal() }
        }
    }

    /// Returns true once at most `limit` bytes are buffered, or false when `timeout` (if any)
    /// passed first; throws `CancellationError` if the connection closes or the calling task is
    /// cancelled meanwhile. Suspends, never blocks.
    func waitUntilBuffered(atMost limit: Int, within timeout: Duration? = nil) async throws -> Bool {
        let id: UInt64? = try state.withLock { state in
            if state.closed || state.closeWhenEmpty { throw CancellationError() }
            if state.bufferedBytes <= limit { return nil }
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        guard let id else { return true }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
                let resumeNow: (any Error)?? = state.withLock { state in
                    if state.closed || state.closeWhenEmpty || Task.isCancelled { return .some(CancellationError()) }
                    if state.bufferedBytes <= limit { return .some(nil) }
                    state.waiters[id] = Waiter(atMost: limit, continuation: continuation)
                    return .none
                }
                switch resumeNow {
                case .none:
                    // Registered: the timer takes it out if nothing released it by then.
                    if let timeout {
                        Task { [weak self] in
                            try? await Task.sleep(for: timeout)
                            self?.state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: false)
                        }
                    }
                case .some(.none): continuation.resume(returning: true)
                case let .some(.some(error)): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// `waitUntilBuffered` for a handler that cannot suspend (it streams from inside a store
    /// callback): blocks its thread at most `timeout`. False if the connection closed or the
    /// peer still had not read enough by then (`isClosing` tells which). Only large queries do
    /// this, on threads of their own, having given their query slot back meanwhile
    /// (`PeerWaitHooks`), so such waits take nothing that other peers' calls need.
    ///
    /// `semaphore` is the one the wait blocks on; whoever else holds it may signal it to end the
    /// wait early (the broker evicting a parked query): this then returns true unless the
    /// connection closed, and the caller checks its own reason to stop.
    func waitUntilBufferedBlocking(atMost limit: Int, timeout: Duration,
                                   semaphore: DispatchSemaphore = DispatchSemaphore(value: 0)) -> Bool {
        let ready: Bool? = state.withLock { state in
            if state.closed || state.closeWhenEmpty { return false }
            if state.bufferedBytes <= limit { return true }
            state.blockedWaiters.append(BlockedWaiter(atMost: limit, semaphore: semaphore))
            return nil
        }
        if let ready { return ready }
        let (seconds, attoseconds) = timeout.components
        let deadline = DispatchTime.now() + .nanoseconds(Int(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        let woken = semaphore.wait(timeout: deadline) == .success
        return state.withLock { state in
            // Still listed when the wait timed out or was ended by the other holder.
            state.blockedWaiters.removeAll { $0.semaphore === semaphore }
            return woken && !state.closed && !state.closeWhenEmpty
        }
    }

    /// Whether at most `limit` bytes are buffered now, on an open connection. A hint (the peer
    /// may read, or another call queue a frame, meanwhile).
    func isBuffered(atMost limit: Int) -> Bool {
        state.withLock { !$0.closed && !$0.closeWhenEmpty && $0.bufferedBytes <= limit }
    }

    /// Closed, or closing once what is queued is written: nothing more will be queued.
    var isClosing: Bool { state.withLock { $0.closed || $0.closeWhenEmpty } }

    /// For the connection's reader thread (which may block): waits while more than `pauseBytes`
    /// are buffered, so a peer that pipelines requests without reading the replies stops being
    /// served until it reads. Returns false once the connection is closed.
    func waitForReaderTurn() -> Bool {
        while true {
            let proceed: Bool? = state.withLock { state in
                if state.closed { return false }
                if state.bufferedBytes <= pauseBytes { return true }
                state.readerPaused = true
                return nil
            }
            if let proceed { return proceed }
            readerWake.wait()
        }
    }

    /// Writes what is queued, then closes. New frames are refused from now on; waiting handlers
    /// are cancelled at once.
    func closeWhenDrained() {
        let waiters = state.withLock { state in
            state.closeWhenEmpty = true
            for blocked in state.blockedWaiters { blocked.semaphore.signal() }
            state.blockedWaiters.removeAll()
            defer { state.waiters.removeAll() }
            return state.waiters.values.map(\.continuation)
        }
        for waiter in waiters { waiter.resume(throwing: CancellationError()) }
        writerWake.signal()
    }

    /// Stops writing; queued frames are dropped and waiting handlers are cancelled. Shuts the
    /// socket down so the reader thread ends too. Idempotent.
    func close() {
        let (waiters, dropped) = state.withLock { state in
            guard !state.closed else { return ([CheckedContinuation<Bool, any Error>](), [Entry]()) }
            state.closed = true
            // What was buffered is dropped: every byte still counted is released here, once
            // (`written` counts nothing after close).
            if let account { account.budget.releaseReplies(state.bufferedBytes, of: account.owner) }
            defer {
                state.waiters.removeAll()
                state.entries.removeAll()
                state.head = 0
                state.bufferedBytes = 0
            }
            for blocked in state.blockedWaiters { blocked.semaphore.signal() }
            state.blockedWaiters.removeAll()
            return (state.waiters.values.map(\.continuation), Array(state.entries[state.head...]))
        }
        for waiter in waiters { waiter.resume(throwing: CancellationError()) }
        for entry in dropped where entry.descriptor >= 0 { Glibc.close(entry.descriptor) }
        writerWake.signal()
        readerWake.signal()
        connection.close()
    }

    private func runWriter() {
        while true {
            let next: Entry?? = state.withLock { state in
                if state.closed { return .some(nil) }
                // An appender is writing directly; it wakes this thread when it is done.
                if state.writing { return .none }
                guard state.head < state.entries.count else { return state.closeWhenEmpty ? .some(nil) : .none }
                state.writing = true
                defer {
                    state.head += 1
                    // Compact now and then so the array does not grow with every frame ever sent.
                    if state.head >= 64, state.head * 2 >= state.entries.count {
                        state.entries.removeFirst(state.head)
                        state.head = 0
                    }
                }
                return state.entries[state.head]
            }
            guard let entry = next else {
                writerWake.wait()
                continue
            }
            guard let entry else {  // closed, or drained for closing
                close()
                return
            }
            do {
                try connection.write(entry.bytes, passing: entry.descriptor)
            } catch {
                // The peer is gone, or read nothing for the send timeout: its calls end here.
                if entry.descriptor >= 0 { Glibc.close(entry.descriptor) }
                close()
                return
            }
            if entry.descriptor >= 0 { Glibc.close(entry.descriptor) }
            let released = state.withLock { state in
                state.writing = false
                // Closed while this frame was being written: close released its bytes already.
                if state.closed { return Released() }
                return state.written(entry.bytes.count, pauseBytes: pauseBytes, account: account)
            }
            released.resume(readerWake)
        }
    }
}

private extension OutboundQueue.State {
    /// `count` bytes left the buffer. Releases whoever waits for what is buffered now (blocked
    /// handlers are signalled here; the rest are returned to resume outside the lock), and the
    /// paused reader at or below the pause threshold.
    mutating func written(_ count: Int, pauseBytes: Int, account: BufferAccount?) -> OutboundQueue.Released {
        bufferedBytes -= count
        if let account { account.budget.releaseReplies(count, of: account.owner) }
        let buffered = bufferedBytes
        for blocked in blockedWaiters where buffered <= blocked.atMost { blocked.semaphore.signal() }
        blockedWaiters.removeAll { buffered <= $0.atMost }
        let released = waiters.filter { buffered <= $0.value.atMost }
        for id in released.keys { waiters[id] = nil }
        let wakeReader = readerPaused && buffered <= pauseBytes
        if wakeReader { readerPaused = false }
        return OutboundQueue.Released(waiters: released.values.map(\.continuation), wakeReader: wakeReader)
    }
}
