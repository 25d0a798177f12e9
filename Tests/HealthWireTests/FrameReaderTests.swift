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
        reader.append(stream[0..<5])
        #expect(try reader.nextBody { asked.append($0); return true } == nil)
        #expect(asked == [FrameCodec.encode(frames[0]).count - 4])
        reader.append(stream[5...])
        var bodies: [[UInt8]] = []
        while let body = try reader.nextBody(admit: { asked.append($0); return true }) { bodies.append(body) }
        #expect(asked == frames.map { FrameCodec.encode($0).count - 4 })
        #expect(try bodies.map(FrameCodec.decode) == frames)

        var refusing = FrameReader()
        let length = FrameCodec.encode(frames[1]).count - 4
        refusing.append(FrameCodec.encode(frames[1]))
        #expect(throws: FrameReader.ReadError.notAdmitted(announced: length)) {
            _ = try refusing.nextBody { _ in false }
        }
    }

    /// A frame is asked for only once every frame before it was taken, even when one read holds
    /// the end of one frame and the prefix of the next: an owner that waits in `admit` for its
    /// earlier frames' calls to end must not be holding one of them undelivered meanwhile.
    @Test func asksForTheNextPrefixOnlyOnceTheFrameBeforeItWasTaken() throws {
        let first = FrameCodec.encode(.request(1, "/m", Array(repeating: 1, count: 300)))
        let second = FrameCodec.encode(.request(2, "/m", Array(repeating: 2, count: 300)))
        var reader = FrameReader()
        var asked = 0
        // All of the first frame and the second's prefix arrive in one read.
        reader.append(first + second.prefix(4))
        let body = try reader.nextBody { _ in asked += 1; return true }
        #expect(try body.map(FrameCodec.decode)?.callID == 1)
        #expect(asked == 1, "the second frame was asked for before the first was taken")
        #expect(try reader.nextBody { _ in asked += 1; return true } == nil)
        #expect(asked == 2)
        #expect(reader.isMidFrame && reader.bufferedByteCount == 0, "an admitted bare prefix is part of a frame")
        reader.append(second.dropFirst(4))
        #expect(try reader.nextBody().map(FrameCodec.decode)?.callID == 2)
        #expect(!reader.isMidFrame)
    }

    /// A body's room is reserved without the frames taken before it: behind a large frame just
    /// taken, reserving in place kept both, twice what was admitted.
    @Test func aBodyIsReservedWithoutTheFramesTakenBeforeIt() throws {
        let mib = 1 << 20
        let first = FrameCodec.encode(.request(1, "/m", Array(repeating: 1, count: mib)))
        let second = FrameCodec.encode(.request(2, "/m", Array(repeating: 2, count: mib)))
        var reader = FrameReader()
        // The first frame whole, the second's prefix and a little of its body, in one read.
        reader.append(first + second.prefix(4 + 100))
        #expect(try reader.nextBody().map(FrameCodec.decode)?.callID == 1)
        #expect(try reader.nextBody() == nil)  // the second is admitted and reserved
        #expect(reader.reservedByteCount < mib + mib / 2, "\(reader.reservedByteCount) bytes reserved for a body of \(second.count - 4)")
        reader.append(second.dropFirst(4 + 100))
        #expect(try reader.nextBody().map(FrameCodec.decode)?.callID == 2)
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
