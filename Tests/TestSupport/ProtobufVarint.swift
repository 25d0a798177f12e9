/// Protobuf's base-128 varint, for tests that hand-serialize messages (so they do not depend on
/// the encoder they check).
public enum ProtobufVarint {
    public static func encode(_ value: Int) -> [UInt8] {
        var value = UInt64(value)
        var out: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            out.append(byte)
        } while value != 0
        return out
    }
}
