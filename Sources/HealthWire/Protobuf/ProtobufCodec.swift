import COpenHealthProto

/// Why bytes from a peer could not be turned into a message.
public enum WireDecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a valid serialization of the expected message (protobuf-c refused it).
    case malformed(message: String)
    /// Messages nested deeper than `WireLimits.maxMessageDepth`.
    case nestedTooDeep(limit: Int)
    /// Well-formed protobuf, but a value the protocol does not allow (e.g. a 3-byte UUID).
    case invalidField(String)
    /// Would take more memory unpacked than `WireLimits.maxUnpackedBytes(forInputBytes:)`:
    /// many empty or tiny nested messages.
    case unpacksTooLarge(message: String, bound: Int)
    /// Would take more memory unpacked than the sender may still hold in healthd
    /// (`UnpackMemoryAccount`: its share of the broker's request memory); `limit` names it.
    case unpackedPastShare(message: String, limit: String)

    public var description: String {
        switch self {
        case let .malformed(message): "malformed \(message)"
        case let .nestedTooDeep(limit): "messages nested deeper than \(limit) levels"
        case let .invalidField(text): text
        case let .unpacksTooLarge(message, bound):
            "\(message) would take more than \(bound) bytes of memory unpacked (more than \(WireLimits.maxUnpackedBytesPerInputByte) per byte sent: too many empty or tiny fields); send fuller fields or split the request"
        case let .unpackedPastShare(message, limit):
            "\(message) unpacked would pass \(limit)"
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

    /// Appends `message` to `buffer` as field `number` of an enclosing message: its tag
    /// (length-delimited), its length and its packed bytes. Protobuf decodes the entries of a
    /// repeated field wherever they stand among the other fields, in order, so a message can be
    /// assembled one element at a time (`ImportRequestBuilder`) and its bytes equal those packed
    /// whole but for field order.
    static func appendField(_ number: UInt32, _ message: UnsafeMutablePointer<some ProtobufCMessageStruct>, to buffer: inout [UInt8]) {
        let base = UnsafeRawPointer(message).assumingMemoryBound(to: ProtobufCMessage.self)
        let size = protobuf_c_message_get_packed_size(base)
        appendVarint(UInt64(number) << 3 | 2, to: &buffer)
        appendVarint(UInt64(size), to: &buffer)
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: size))
        buffer.withUnsafeMutableBufferPointer { bytes in
            // `start + size` is inside: the zeros were appended just above.
            _ = protobuf_c_message_pack(base, bytes.baseAddress.map { $0 + start })
        }
    }

    /// `value` as a protobuf varint at the end of `buffer`: the one varint writer of the module
    /// (the hand-written import batches and fetched-sample frames use it too).
    static func appendVarint(_ value: UInt64, to buffer: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        buffer.append(UInt8(rest))
    }

    /// Unpacks `bytes` as an `M` and lends it to `body`; everything protobuf-c allocated is freed
    /// when `body` returns, so nothing it hands out may escape the closure.
    ///
    /// The nesting depth is checked first (`WireDepthGuard`), because protobuf-c's decoder
    /// recurses once per level and has no limit of its own. protobuf-c allocates from an
    /// `UnpackArena`, released in one go afterwards instead of message by message, and charged
    /// to the calling request's account (`UnpackMemory.account`) as it grows.
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
            let name = String(cString: descriptor.pointee.name)
            if arena.refusedByAccount, let account = arena.account {
                throw WireDecodeError.unpackedPastShare(message: name, limit: account.unpackedLimitDescription)
            }
            if arena.exceededBound { throw WireDecodeError.unpacksTooLarge(message: name, bound: arena.bound) }
            throw WireDecodeError.malformed(message: name)
        }
        return try withExtendedLifetime(arena) {
            try body(UnsafeRawPointer(unpacked).assumingMemoryBound(to: M.self).pointee)
        }
    }
}
