import HealthWire

/// libFuzzer target: the bytes a peer writes on a socket, through the frame reader (length
/// prefix, size cap) and the Frame decoder (protobuf). Nothing may trap, and re-encoding a
/// decoded frame must be stable: after one normalization (e.g. an unknown HealthKit code read
/// as none) encode and decode give the same frame again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrame(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var reader = FrameReader(maxFrameBytes: 64 * 1024)
    guard let bodies = try? reader.consume(bytes) else { return 0 }
    for body in bodies {
        guard let frame = try? FrameCodec.decode(body) else { continue }
        guard let once = roundTrip(frame), roundTrip(once) == once else {
            fatalError("a decoded frame does not re-encode stably")
        }
    }
    return 0
}

/// `frame` encoded (with its length prefix) and read back the way a peer reads it.
func roundTrip(_ frame: Frame) -> Frame? {
    var reader = FrameReader(maxFrameBytes: 64 * 1024)
    guard let bodies = try? reader.consume(FrameCodec.encode(frame)), bodies.count == 1 else { return nil }
    return try? FrameCodec.decode(bodies[0])
}
