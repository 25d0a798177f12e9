/// Splits a byte stream into frames: a 4-byte big-endian length, then that many bytes of a
/// serialized `Frame`.
///
/// A pure state machine (no I/O) so it can be unit-tested and fuzzed: feed it whatever `read(2)`
/// returned and take out complete frames. The length is checked against `maxFrameBytes` before
/// a single byte of the body is buffered, so a peer cannot make the broker allocate more than
/// that per connection.
public struct FrameReader: Sendable {
    public enum ReadError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The length prefix announced more than the limit; the stream cannot be resynchronised.
        case frameTooLarge(announced: Int, limit: Int)
        /// A zero length: no valid Frame serializes to nothing we accept (a REQUEST needs a call id).
        case emptyFrame
        /// The reader's owner did not admit the announced body (`consume(_:admit:)`): no room
        /// for it in the owner's memory bound, and the connection ended while it waited.
        case notAdmitted(announced: Int)

        public var description: String {
            switch self {
            case let .frameTooLarge(announced, limit):
                "frame of \(announced) bytes exceeds the limit of \(limit) bytes"
            case .emptyFrame:
                "frame of length 0"
            case let .notAdmitted(announced):
                "frame of \(announced) bytes not admitted: this app's buffered requests and replies are at its share of the broker's memory bound"
            }
        }
    }

    private let maxFrameBytes: Int
    /// Capacity an empty buffer may keep between frames: a read's worth (the reader's chunk).
    static let keptCapacity = 64 * 1024
    private var buffer: [UInt8] = []
    /// Body length of the frame being read, once its prefix has arrived.
    private var expectedBodyLength: Int?

    public init(maxFrameBytes: Int = WireLimits.maxFrameBytes) {
        self.maxFrameBytes = maxFrameBytes
    }

    /// Bytes received but not yet part of a complete frame.
    public var bufferedByteCount: Int { buffer.count }

    /// Appends received bytes and returns every frame body now complete, in order.
    public mutating func consume(_ bytes: some Collection<UInt8>) throws(ReadError) -> [[UInt8]] {
        try consume(bytes) { _ in true }
    }

    /// `consume`, asking `admit` for each body length as soon as its prefix has arrived — before
    /// any more of the stream is read — so the owner can account for it or wait for room (the
    /// caller reads nothing more meanwhile). `admit` returning false stops the stream
    /// (`.notAdmitted`). Bodies are admitted in the order they are returned.
    public mutating func consume(_ bytes: some Collection<UInt8>, admit: (Int) -> Bool) throws(ReadError) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        var bodies: [[UInt8]] = []
        var offset = 0
        while true {
            if expectedBodyLength == nil {
                guard buffer.count - offset >= 4 else { break }
                let length = buffer[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
                guard length > 0 else { throw .emptyFrame }
                guard length <= maxFrameBytes else {
                    throw .frameTooLarge(announced: length, limit: maxFrameBytes)
                }
                guard admit(length) else { throw .notAdmitted(announced: length) }
                expectedBodyLength = length
                offset += 4
                // Room for the whole body at once (what was admitted), not grown by doubling
                // to up to twice that with a copy at each step.
                buffer.reserveCapacity(offset + length)
            }
            guard let length = expectedBodyLength, buffer.count - offset >= length else { break }
            bodies.append(Array(buffer[offset..<offset + length]))
            offset += length
            expectedBodyLength = nil
        }
        if offset > 0 { buffer.removeFirst(offset) }
        // A buffer that held a large frame keeps its capacity when emptied: given back, so a
        // connection idle after a 4 MiB frame holds nothing for it (16 connections of one app
        // kept 64 MiB or more this way, outside any budget).
        if buffer.isEmpty, buffer.capacity > Self.keptCapacity { buffer = [] }
        return bodies
    }

    /// The length prefix for a body of `count` bytes.
    public static func prefix(forBodyLength count: Int) -> [UInt8] {
        precondition(count >= 0 && count <= Int(UInt32.max))
        return [UInt8(truncatingIfNeeded: count >> 24), UInt8(truncatingIfNeeded: count >> 16),
                UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
    }
}
