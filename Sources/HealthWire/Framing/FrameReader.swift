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

        public var description: String {
            switch self {
            case let .frameTooLarge(announced, limit):
                "frame of \(announced) bytes exceeds the limit of \(limit) bytes"
            case .emptyFrame:
                "frame of length 0"
            }
        }
    }

    private let maxFrameBytes: Int
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
                expectedBodyLength = length
                offset += 4
            }
            guard let length = expectedBodyLength, buffer.count - offset >= length else { break }
            bodies.append(Array(buffer[offset..<offset + length]))
            offset += length
            expectedBodyLength = nil
        }
        if offset > 0 { buffer.removeFirst(offset) }
        return bodies
    }

    /// The length prefix for a body of `count` bytes.
    public static func prefix(forBodyLength count: Int) -> [UInt8] {
        precondition(count >= 0 && count <= Int(UInt32.max))
        return [UInt8(truncatingIfNeeded: count >> 24), UInt8(truncatingIfNeeded: count >> 16),
                UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
    }
}
