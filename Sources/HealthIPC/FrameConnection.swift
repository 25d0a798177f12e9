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
        let bytes = FrameCodec.encode(frame)
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

    /// Reads until the peer closes or breaks the protocol, handing each frame to `onFrame`.
    /// Returns nil at a clean end of stream, or why reading stopped.
    public func readFrames(
        maxFrameBytes: Int = WireLimits.maxFrameBytes, _ onFrame: (Frame) -> Void
    ) -> ReadFailure? {
        var reader = FrameReader(maxFrameBytes: maxFrameBytes)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var descriptors = [Int32](repeating: -1, count: 4)
        while true {
            var received = 0
            let count = buffer.withUnsafeMutableBytes { raw in
                ohk_recv_with_fds(fd, raw.baseAddress, raw.count, &descriptors, descriptors.count, &received)
            }
            if count < 0 { return errno == EBADF ? nil : .system(SystemCallError("recvmsg")) }
            keepOrClose(Array(descriptors[0..<received]))
            if count == 0 { return reader.bufferedByteCount == 0 ? nil : .truncated }
            let bodies: [[UInt8]]
            do {
                bodies = try reader.consume(buffer[0..<count])
            } catch {
                return .framing(error)
            }
            for body in bodies {
                do {
                    onFrame(try FrameCodec.decode(body))
                } catch {
                    return .decoding(error)
                }
            }
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

        public var description: String {
            switch self {
            case let .system(error): "\(error)"
            case let .framing(error): "\(error)"
            case let .decoding(error): "\(error)"
            case .truncated: "connection closed in the middle of a frame"
            }
        }
    }
}
