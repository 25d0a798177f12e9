import Testing
@testable import HealthWire

@Suite(.timeLimit(.minutes(10))) struct FrameReaderTests {
    @Test func splitsFramesArrivingOneByteAtATime() throws {
        let frames = [Frame.request(1, "/openhealth.v1.HealthStore/Save", [1, 2, 3]),
                      Frame.response(1, Array(repeating: 7, count: 300))]
        let stream = frames.flatMap(FrameCodec.encode)
        var reader = FrameReader()
        var bodies: [[UInt8]] = []
        for byte in stream { bodies += try reader.consume([byte]) }
        #expect(try bodies.map(FrameCodec.decode) == frames)
        #expect(reader.bufferedByteCount == 0)
    }

    /// Each body is offered to `admit` as soon as its prefix arrives, before any of it is
    /// buffered, in stream order; a refusal stops the stream.
    @Test func asksForEachBodyAtItsPrefix() throws {
        let frames = [Frame.request(1, "/m", [1, 2, 3]), Frame.request(2, "/m", Array(repeating: 9, count: 500))]
        let stream = frames.flatMap(FrameCodec.encode)
        var reader = FrameReader()
        var asked: [Int] = []
        // The first frame's prefix and one byte of its body: its length is asked for now.
        _ = try reader.consume(stream[0..<5]) { asked.append($0); return true }
        #expect(asked == [FrameCodec.encode(frames[0]).count - 4])
        let bodies = try reader.consume(stream[5...]) { asked.append($0); return true }
        #expect(asked == frames.map { FrameCodec.encode($0).count - 4 })
        #expect(try bodies.map(FrameCodec.decode) == frames)

        var refusing = FrameReader()
        let length = FrameCodec.encode(frames[1]).count - 4
        #expect(throws: FrameReader.ReadError.notAdmitted(announced: length)) {
            _ = try refusing.consume(FrameCodec.encode(frames[1])) { _ in false }
        }
    }

    @Test func returnsEveryFrameOfOneRead() throws {
        let stream = (1...5).flatMap { FrameCodec.encode(.request(UInt64($0), "/m", [])) }
        var reader = FrameReader()
        let bodies = try reader.consume(stream)
        #expect(try bodies.map { try FrameCodec.decode($0).callID } == [1, 2, 3, 4, 5])
    }

    @Test func refusesAnOversizeLengthBeforeBufferingTheBody() {
        var reader = FrameReader(maxFrameBytes: 1024)
        #expect(throws: FrameReader.ReadError.frameTooLarge(announced: 1025, limit: 1024)) {
            _ = try reader.consume(FrameReader.prefix(forBodyLength: 1025))
        }
        var huge = FrameReader()
        #expect(throws: FrameReader.ReadError.frameTooLarge(announced: Int(UInt32.max), limit: WireLimits.maxFrameBytes)) {
            _ = try huge.consume([0xFF, 0xFF, 0xFF, 0xFF])
        }
    }

    @Test func refusesAnEmptyFrame() {
        var reader = FrameReader()
        #expect(throws: FrameReader.ReadError.emptyFrame) { _ = try reader.consume([0, 0, 0, 0]) }
    }

    @Test func keepsAPartialFrameBuffered() throws {
        let encoded = FrameCodec.encode(.request(9, "/m", [1, 2, 3, 4]))
        var reader = FrameReader()
        #expect(try reader.consume(encoded.dropLast()).isEmpty)
        #expect(reader.bufferedByteCount == encoded.count - 1 - 4)  // the prefix is consumed
        let bodies = try reader.consume(encoded.suffix(1))
        #expect(try FrameCodec.decode(bodies[0]).callID == 9)
    }
}
