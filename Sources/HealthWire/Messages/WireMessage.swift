/// A Swift value that travels as one protobuf message payload.
public protocol WireMessage: Sendable {
    /// Decodes a payload from a peer. Throws `WireDecodeError` for anything malformed or out of
    /// the protocol's bounds; never traps.
    init(wire bytes: [UInt8]) throws
    func wireBytes() -> [UInt8]
}
