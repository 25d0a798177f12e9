import CSocketShim
import Glibc
public import HealthWire
import Synchronization

/// One end of a framed connection: whole frames out (serialized by a lock so frames of
/// concurrent calls never interleave), frame bodies in through the bounded `FrameReader`.
///
/// Blocking I/O on a dedicated reader thread: a connection has exactly one reader, and the
/// peers are few (bounded per app), so a thread each keeps the privileged code plain.
public final class FrameConnection: Sendable {
    public let fd: Int32
    /// Whether descriptors received as SCM_RIGHTS are kept (health-sandbox) or closed at once
    /// (everyone else: a broker never accepts descriptors from apps).
    private let acceptsDescriptors: Bool
    private let writeLock = Mutex(())
    private let state = Mutex(State())

    private struct State {
        var closed = false
        var receivedDescriptors: [Int32] = []
    }

    public init(fd: Int32, acceptsDescriptors: Bool = false) {
        self.fd = fd
        self.acceptsDescriptors = acceptsDescriptors
    }

    deinit {
        // The descriptor is released only here, once no thread can still be reading it: closing
        // it earlier would let a blocked reader wake up on a reused descriptor number.
        Glibc.close(fd)
        for fd in state.withLock({ $0.receivedDescriptors }) { Glibc.close(fd) }
    }

    /// Writes one frame, optionally passing a descriptor with it. Thread-safe.
    public func send(_ frame: Frame, passing descriptor: Int32 = -1) throws(SystemCallError) {
        try write(FrameCodec.encode(frame), passing: descriptor)
    }

    /// Writes one encoded frame, blocking until the socket took all of it. Thread-safe. Only for
    /// threads that may block: a client's, or a server connection's own writer (`OutboundQueue`).
    func write(_ bytes: [UInt8], passing descriptor: Int32 = -1) throws(SystemCallError) {
        try writeLock.withLock { _ throws(SystemCallError) in
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes { raw in
                    ohk_send_with_fd(fd, raw.baseAddress! + offset, raw.count - offset, offset == 0 ? descriptor : -1)
                }
                if sent < 0 { throw SystemCallError("sendmsg") }
                offset += sent
            }
        }
    }

    /// Writes as much of `bytes` as the socket takes now, never waiting for room; returns how
    /// many bytes it took (0 when its buffer is full). The descriptor, if any, goes with the first
    /// byte, so it was passed exactly when the result is above 0. For `OutboundQueue`'s direct
    /// path: a thread that must not block (a pool thread, a connection's reader) may write a
    /// reply itself when nothing is queued ahead of it.
    func writeWithoutWaiting(_ bytes: [UInt8], passing descriptor: Int32 = -1) throws(SystemCallError) -> Int {
        try writeLock.withLock { _ throws(SystemCallError) -> Int in
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes { raw in
                    ohk_send_with_fd_nowait(fd, raw.baseAddress! + offset, raw.count - offset, offset == 0 ? descriptor : -1)
                }
                if sent < 0 {
                    if errno == EAGAIN || errno == EWOULDBLOCK { break }
                    throw SystemCallError("sendmsg")
                }
                offset += sent
            }
            return offset
        }
    }

    /// Reads until the peer closes or breaks the protocol, handing each frame to `onFrame`.
    /// Returns nil at a clean end of stream, or why reading stopped.
    ///
    /// With `incompleteFrameTimeout`, a peer that has sent part of a frame (some of a length
    /// prefix, or a prefix without all of its body) must complete a frame within that time, or
    /// reading stops with `.incompleteFrameTimedOut`: otherwise a header announcing 4 MiB and
    /// never followed by them holds the buffer forever. An idle connection between frames never
    /// times out (long-running queries wait there).
    ///
    /// `admitBody` is asked for each frame's body length once its prefix has arrived, before the
    /// body is read (`FrameReader.nextBody(admit:)`), and only after every earlier frame went to
    /// `onFrame`; it may block, and time spent there does not count against
    /// `incompleteFrameTimeout` (the wait is the reader's, not the peer's). A prefix alone is
    /// part of a frame: a peer that sends one and nothing more times out like any other.
    public func readFrames(
        maxFrameBytes: Int = WireLimits.maxFrameBytes, incompleteFrameTimeout: Duration? = nil,
        admitBody: (Int) -> Bool = { _ in true },
        _ onFrame: (Frame) -> Void
    ) -> ReadFailure? {
        var reader = FrameReader(maxFrameBytes: maxFrameBytes)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var descriptors = [Int32](repeating: -1, count: 4)
        let clock = ContinuousClock()
        // When the oldest incomplete frame started arriving: reset each time a frame completes.
        var incompleteSince: ContinuousClock.Instant?
        while true {
            if let limit = incompleteFrameTimeout, let since = incompleteSince {
                let left = limit - (clock.now - since)
                if left <= .zero || !waitReadable(within: left) { return .incompleteFrameTimedOut(limit) }
            }
            var received = 0
            let count = buffer.withUnsafeMutableBytes { raw in
                ohk_recv_with_fds(fd, raw.baseAddress, raw.count, &descriptors, descriptors.count, &received)
            }
            if count < 0 { return errno == EBADF ? nil : .system(SystemCallError("recvmsg")) }
            keepOrClose(Array(descriptors[0..<received]))
            if count == 0 { return reader.isMidFrame ? .truncated : nil }
            reader.append(buffer[0..<count])
            // A frame admitted or completed in this chunk restarts the clock: however long the
            // admission waited, the peer gets the whole limit to send that body.
            var progressed = false
            // One frame at a time (`FrameReader.nextBody`): the next prefix is admitted only once
            // the frame before it was handled, so a waiting `admitBody` holds no frame of ours.
            while true {
                let body: [UInt8]?
                do {
                    body = try reader.nextBody { length in
                        progressed = true
                        return admitBody(length)
                    }
                } catch {
                    return .framing(error)
                }
                guard let body else { break }
                progressed = true
                do {
                    onFrame(try FrameCodec.decode(body))
                } catch {
                    return .decoding(error)
                }
            }
            if !reader.isMidFrame || progressed { incompleteSince = nil }
            if reader.isMidFrame, incompleteSince == nil { incompleteSince = clock.now }
        }
    }

    /// Waits until the socket has something to read (or hung up); false when `limit` passed first.
    private func waitReadable(within limit: Duration) -> Bool {
        let (seconds, attoseconds) = limit.components
        let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            return ready != 0  // an error is left for recvmsg to report
        }
    }

    /// The oldest descriptor received and not yet taken, if any.
    public func takeReceivedDescriptor() -> Int32? {
        state.withLock { state in
            state.receivedDescriptors.isEmpty ? nil : state.receivedDescriptors.removeFirst()
        }
    }

    /// Shuts the socket down in both directions, waking a blocked reader; the descriptor itself
    /// is released when the connection is deallocated. Idempotent.
    public func close() {
        let wasOpen = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard wasOpen else { return }
        shutdown(fd, Int32(SHUT_RDWR))
    }

    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Whether the peer has closed its end, both ways (the socket reports a hang-up): nothing more
    /// can arrive from it, nor can it read anything. Never blocks. For a reader waiting for room
    /// to admit a frame, which reads nothing meanwhile and so would not see the end of file.
    public var peerHasLeft: Bool {
        var entry = pollfd(fd: fd, events: 0, revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLHUP) != 0
    }

    private func keepOrClose(_ descriptors: [Int32]) {
        guard !descriptors.isEmpty else { return }
        if acceptsDescriptors {
            state.withLock { $0.receivedDescriptors.append(contentsOf: descriptors) }
        } else {
            for fd in descriptors { Glibc.close(fd) }
        }
    }

    public enum ReadFailure: Error, Sendable, CustomStringConvertible {
        case system(SystemCallError)
        case framing(FrameReader.ReadError)
        case decoding(WireDecodeError)
        case truncated
        /// Part of a frame arrived and the rest did not within the limit.
        case incompleteFrameTimedOut(Duration)

        public var description: String {
            switch self {
            case let .incompleteFrameTimedOut(limit):
                "a frame must arrive whole within \(limit.components.seconds) s of its first byte; closing the connection"
            case let .system(error): "\(error)"
            case let .framing(error): "\(error)"
            case let .decoding(error): "\(error)"
            case .truncated: "connection closed in the middle of a frame"
            }
        }
    }
}
