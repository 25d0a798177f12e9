import COpenHealthProto

/// Why bytes from a peer could not be turned into a message.
public enum WireDecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a valid serialization of the expected message (protobuf-c refused it).
    case malformed(message: String)
    /// Messages nested deeper than `WireLimits.maxMessageDepth`.
    case nestedTooDeep(limit: Int)
    /// Well-formed protobuf, but a value the protocol does not allow (e.g. a 3-byte UUID).
    case invalidField(String)

    public var description: String {
        switch self {
        case let .malformed(message): "malformed \(message)"
        case let .nestedTooDeep(limit): "messages nested deeper than \(limit) levels"
        case let .invalidField(text): text
        }
    }
}

/// Packs and unpacks generated protobuf-c structs. The only place that calls protobuf-c's
/// pack/unpack entry points.
enum ProtobufCodec {
    /// Serializes a message whose pointers stay valid for the duration of the call (they point
    /// into a `WireArena` or at protobuf-c's static defaults).
    static func encode<M: ProtobufCMessageStruct>(_ message: M) -> [UInt8] {
        withUnsafePointer(to: message) { pointer in
            let base = UnsafeRawPointer(pointer).assumingMemoryBound(to: ProtobufCMessage.self)
            let size = protobuf_c_message_get_packed_size(base)
            return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = protobuf_c_message_pack(base, buffer.baseAddress)
            }
        }
    }

    /// Unpacks `bytes` as an `M` and lends it to `body`; everything protobuf-c allocated is freed
    /// when `body` returns, so nothing it hands out may escape the closure.
    ///
    /// The nesting depth is checked first (`WireDepthGuard`), because protobuf-c's decoder
    /// recurses once per level and has no limit of its own. protobuf-c allocates from an
    /// `UnpackArena`, released in one go afterwards instead of message by message.
    static func withDecoded<M: ProtobufCMessageStruct, R>(
        _ type: M.Type, from bytes: [UInt8], _ body: (M) throws -> R
    ) throws -> R {
        let descriptor = M.descriptor
        try WireDepthGuard.check(bytes, descriptor: descriptor)
        let arena = UnpackArena(inputBytes: bytes.count)
        let unpacked = arena.withAllocator { allocator in
            bytes.withUnsafeBufferPointer { buffer in
                protobuf_c_message_unpack(descriptor, allocator, buffer.count, buffer.baseAddress)
            }
        }
        guard let unpacked else {
            throw WireDecodeError.malformed(message: String(cString: descriptor.pointee.name))
        }
        return try withExtendedLifetime(arena) {
            try body(UnsafeRawPointer(unpacked).assumingMemoryBound(to: M.self).pointee)
        }
    }
}
