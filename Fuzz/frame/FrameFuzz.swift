import HealthWire

/// libFuzzer target: the bytes a peer writes on a socket, through the frame reader (length
/// prefix, size cap) and the Frame decoder (protobuf). Nothing may trap; every frame decoded
/// must encode and decode back to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrame(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var reader = FrameReader(maxFrameBytes: 64 * 1024)
    guard let bodies = try? reader.consume(bytes) else { return 0 }
    for body in bodies {
        guard let frame = try? FrameCodec.decode(body) else { continue }
        let again = try? FrameCodec.decode(FrameCodec.encode(frame))
        if again != frame { fatalError("a decoded frame does not round-trip") }
    }
    return 0
}
