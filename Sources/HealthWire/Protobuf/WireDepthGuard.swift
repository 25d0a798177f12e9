import COpenHealthProto

/// Walks serialized protobuf bytes with the message's descriptor before protobuf-c's recursive
/// decoder runs, and refuses nesting deeper than `WireLimits.maxMessageDepth` and any string
/// field whose bytes break `WireText`'s rule (NUL or invalid UTF-8, which protobuf-c would
/// silently truncate or which `String(cString:)` would replace).
///
/// It reads only tags and lengths (bounded by the input), allocates nothing, and leaves full
/// validation to protobuf-c: any structural error it meets is reported as malformed.
enum WireDepthGuard {
    static func check(
        _ bytes: [UInt8], descriptor: UnsafePointer<ProtobufCMessageDescriptor>,
        limit: Int = WireLimits.maxMessageDepth
    ) throws(WireDecodeError) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(WireDecodeError) in
            try walk(buffer[...], descriptor: descriptor, depth: 1, limit: limit)
        }
    }

    private static func walk(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>, descriptor: UnsafePointer<ProtobufCMessageDescriptor>,
        depth: Int, limit: Int
    ) throws(WireDecodeError) {
        guard depth <= limit else { throw .nestedTooDeep(limit: limit) }
        // Made only when thrown: this runs once per nested message (twice per sample of a save).
        var malformed: WireDecodeError { .malformed(message: String(cString: descriptor.pointee.name)) }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard let key = readVarint(bytes, &index) else { throw malformed }
            let wireType = key & 7
            let fieldNumber = key >> 3
            switch wireType {
            case 0:
                guard readVarint(bytes, &index) != nil else { throw malformed }
            case 1:
                index += 8
            case 5:
                index += 4
            case 2:
                guard let length = readVarint(bytes, &index), length <= UInt64(bytes.endIndex - index) else {
                    throw malformed
                }
                let end = index + Int(length)
                if let field = field(of: descriptor, fieldNumber: fieldNumber) {
                    if field.pointee.type == PROTOBUF_C_TYPE_MESSAGE, let nested = field.pointee.descriptor {
                        try walk(bytes[index..<end], descriptor: nested.assumingMemoryBound(to: ProtobufCMessageDescriptor.self),
                                 depth: depth + 1, limit: limit)
                    } else if field.pointee.type == PROTOBUF_C_TYPE_STRING, let problem = WireText.problem(in: bytes[index..<end]) {
                        throw .invalidField("\(String(cString: descriptor.pointee.name)).\(String(cString: field.pointee.name)) \(problem); text must be UTF-8 without NUL")
                    }
                }
                index = end
            default:
                throw malformed  // groups (3, 4) and unknown wire types are not part of proto3
            }
            guard index <= bytes.endIndex else { throw malformed }
        }
    }

    private static func field(
        of descriptor: UnsafePointer<ProtobufCMessageDescriptor>, fieldNumber: UInt64
    ) -> UnsafePointer<ProtobufCFieldDescriptor>? {
        guard fieldNumber <= UInt64(UInt32.max) else { return nil }
        return protobuf_c_message_descriptor_get_field(descriptor, UInt32(fieldNumber))
    }

    private static func readVarint(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ index: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.endIndex, shift < 64 {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
