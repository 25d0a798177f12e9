/// The one rule for text that crosses the wire: UTF-8, without NUL. Every string field of every
/// message is checked against it, in both directions:
///
/// - Decoding: `WireDepthGuard` hands each string field's length-delimited bytes here before
///   protobuf-c unpacks them. protobuf-c copies a string into a NUL-terminated `char *` and
///   does not validate UTF-8, so after unpacking a NUL would silently cut the string short and
///   invalid bytes would be replaced by `String(cString:)`; here both are still visible.
/// - Encoding: protobuf-c packs a `char *` with `strlen`, so a Swift string holding U+0000
///   cannot be packed whole. `WireArena.string` writes each NUL as the two bytes C0 80 (the
///   "modified UTF-8" spelling Java uses), which is not valid UTF-8 and which the receiver's
///   check reports as a NUL: the value is refused by whoever decodes it, never truncated.
public enum WireText {
    /// What is wrong with a string's bytes; `offset` is the byte offset in the string.
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        case nul(offset: Int)
        case invalidUTF8(offset: Int)

        public var description: String {
            switch self {
            case let .nul(offset): "contains a NUL character at byte \(offset)"
            case let .invalidUTF8(offset): "is not valid UTF-8 at byte \(offset)"
            }
        }
    }

    /// The first problem in `bytes`, or nil when they are UTF-8 without NUL.
    public static func problem<C: Collection>(in bytes: C) -> Problem? where C.Element == UInt8, C.Index == Int {
        // Nearly all text on the wire (type identifiers, units, app ids, names) is ASCII: bytes
        // 0x01…0x7F are UTF-8 without NUL (and cannot spell C0 80), so such text needs no parse.
        // Decoding a 10,000-sample answer checks some 60,000 strings (issue 17).
        if bytes.withContiguousStorageIfAvailable(isASCIIWithoutNUL) == true { return nil }
        var index = bytes.startIndex
        var previous: UInt8?
        for byte in bytes {
            if byte == 0 { return .nul(offset: index - bytes.startIndex) }
            if previous == 0xC0, byte == 0x80 { return .nul(offset: index - 1 - bytes.startIndex) }
            previous = byte
            index += 1
        }
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case let .valid(scalar):
                offset += scalar.count
            case .emptyInput:
                return nil
            case .error:
                return .invalidUTF8(offset: offset)
            }
        }
    }

    /// True when every byte is in 0x01…0x7F; eight bytes at a time.
    static func isASCIIWithoutNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            // A byte with its high bit set, or a zero byte (the classic has-zero-byte test).
            if word & highBits != 0 || (word &- ones) & ~word & highBits != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            let byte = base[offset]
            if byte == 0 || byte >= 0x80 { return false }
            offset += 1
        }
        return true
    }

    /// The bytes `WireArena` packs for `string`: its UTF-8, each NUL spelled C0 80.
    static func packable(_ string: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if byte == 0 { bytes.append(0xC0); bytes.append(0x80) } else { bytes.append(byte) }
        }
        return bytes
    }
}
