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
        /// The reader's owner did not admit the announced body (`nextBody(admit:)`): no room
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
    /// Where the bytes not yet taken start in `buffer`. Taking a frame only moves it; the buffer
    /// is compacted once it holds no complete frame (`nextBody` returning nil), so a read full
    /// of small frames is not shifted once per frame.
    private var start = 0
    /// Body length of the frame being read, once its prefix has arrived (and was admitted).
    private var expectedBodyLength: Int?

    public init(maxFrameBytes: Int = WireLimits.maxFrameBytes) {
        self.maxFrameBytes = maxFrameBytes
    }

    /// Bytes received but not yet taken as part of a frame (a prefix already admitted is taken).
    public var bufferedByteCount: Int { buffer.count - start }

    /// Bytes the reader's buffer has room for (its capacity): what it holds in memory.
    var reservedByteCount: Int { buffer.capacity }

    /// Whether part of a frame has arrived and not all of it: some bytes, or an admitted prefix
    /// whose body has not begun (a reader cut off there was cut off mid-frame).
    public var isMidFrame: Bool { expectedBodyLength != nil || bufferedByteCount > 0 }

    /// Appends received bytes and returns every frame body now complete, in order. For readers
    /// that admit every body (clients, tests); an owner that may wait to admit one pulls them
    /// one at a time (`append`, `nextBody(admit:)`).
    public mutating func consume(_ bytes: some Collection<UInt8>) throws(ReadError) -> [[UInt8]] {
        append(bytes)
        var bodies: [[UInt8]] = []
        while let body = try nextBody() { bodies.append(body) }
        return bodies
    }

    /// Adds received bytes; take the frames they complete with `nextBody`.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame body, or nil until more bytes arrive. `admit` is asked for a body
    /// length as soon as its prefix is here, before any of the body is buffered, so the owner can
    /// account for it or wait for room; false stops the stream (`.notAdmitted`).
    ///
    /// One body per call, by design: a frame is asked for only once every earlier body has been
    /// returned. An owner whose `admit` waits for earlier frames' calls to end therefore never
    /// waits while a complete frame sits here undelivered — its own bytes, holding room that
    /// only its delivery can give back. (Asking for the next prefix of a read before returning
    /// the bodies completed by it did that: every connection of an app flooding maximal frames
    /// ended up waiting for room its own undelivered frames held, and the app was stalled for good.)
    public mutating func nextBody(admit: (Int) -> Bool = { _ in true }) throws(ReadError) -> [UInt8]? {
        if expectedBodyLength == nil {
            guard buffer.count - start >= 4 else { return compacted() }
            let length = buffer[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length > 0 else { throw .emptyFrame }
            guard length <= maxFrameBytes else {
                throw .frameTooLarge(announced: length, limit: maxFrameBytes)
            }
            guard admit(length) else { throw .notAdmitted(announced: length) }
            expectedBodyLength = length
            start += 4
            // Room for the whole body at once (what was admitted), not grown by doubling
            // to up to twice that with a copy at each step. The frames taken before it are
            // dropped first (at most a read's worth follows them): reserved behind a 4 MiB frame
            // just taken, the buffer would be 8 MiB, twice what was admitted.
            if buffer.capacity < start + length {
                buffer.removeFirst(start)
                start = 0
                buffer.reserveCapacity(length)
            }
        }
        guard let length = expectedBodyLength, buffer.count - start >= length else { return compacted() }
        let body = Array(buffer[start..<start + length])
        start += length
        expectedBodyLength = nil
        return body
    }

    /// Drops the bytes taken; nil (no complete frame), for `nextBody`.
    private mutating func compacted() -> [UInt8]? {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        // A buffer that held a large frame keeps its capacity when emptied: given back, so a
        // connection idle after a 4 MiB frame holds nothing for it (16 connections of one app
        // kept 64 MiB or more this way, outside any budget).
        if buffer.isEmpty, buffer.capacity > Self.keptCapacity { buffer = [] }
        return nil
    }

    /// The length prefix for a body of `count` bytes.
    public static func prefix(forBodyLength count: Int) -> [UInt8] {
        var prefix: [UInt8] = [0, 0, 0, 0]
        storePrefix(forBodyLength: count, in: &prefix)
        return prefix
    }

    /// Writes the length prefix for a body of `count` bytes over the first four bytes of `frame`
    /// (a frame built with room left for it, as `FrameCodec.encode` does).
    static func storePrefix(forBodyLength count: Int, in frame: inout [UInt8]) {
        precondition(count >= 0 && count <= Int(UInt32.max) && frame.count >= 4)
        frame[0] = UInt8(truncatingIfNeeded: count >> 24)
        frame[1] = UInt8(truncatingIfNeeded: count >> 16)
        frame[2] = UInt8(truncatingIfNeeded: count >> 8)
        frame[3] = UInt8(truncatingIfNeeded: count)
    }
}
