/// A 128-bit FNV-1a digest in hex: the same text gives the same identifier in every run and on
/// every machine (Swift's `Hasher` is seeded per process). It names imported samples for
/// de-duplication only — collisions between a person's own records are what matters, not an
/// adversary — so two independent 64-bit lanes are plenty (a collision among 10^8 records has a
/// probability near 10^-22).
enum StableHash {
    static func hex(_ text: String) -> String {
        var digest = Digest()
        digest.append(text)
        return digest.hex
    }

    /// The digest of fields joined by U+001F, fed piece by piece: the import names every record
    /// this way, and building the joined text (decimal dates formatted into strings, an array of
    /// fields, the joined copy) cost more than hashing it. `hex` of the joined text and a
    /// `Digest` fed the same pieces with `separator()` between them give the same identifier.
    struct Digest {
        private var first: UInt64 = 0xcbf2_9ce4_8422_2325
        private var second: UInt64 = 0x84222325_cbf29ce4

        mutating func append(_ byte: UInt8) {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second ^= second >> 29
        }

        mutating func append(_ text: String) {
            var text = text
            // The bytes in place (made contiguous first if the string is bridged), no iterator per byte.
            text.withUTF8 { bytes in for byte in bytes { append(byte) } }
        }

        mutating func append(_ text: Substring) {
            for byte in text.utf8 { append(byte) }
        }

        /// `value` in decimal, as `"\(value)"` spells it, without making the string.
        mutating func append(_ value: Int64) {
            if value < 0 { append(UInt8(ascii: "-")) }
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                         UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var magnitude = value.magnitude
            var count = 0
            withUnsafeMutableBytes(of: &digits) { buffer in
                repeat {
                    buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                    count += 1
                } while magnitude > 0
                for index in stride(from: count - 1, through: 0, by: -1) { append(buffer[index]) }
            }
        }

        /// The field separator of `ExportConversion`'s identities.
        mutating func separator() {
            append(UInt8(0x1F))
        }

        /// Both lanes as 32 lowercase hex digits, zero-padded, written in place (formatting
        /// each lane with `String(_:radix:)` and padding it took three strings per record).
        var hex: String {
            String(unsafeUninitializedCapacity: 32) { buffer in
                StableHash.writeHex(first, into: buffer, at: 0)
                StableHash.writeHex(second, into: buffer, at: 16)
                return 32
            }
        }
    }

    private static func writeHex(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let digits: StaticString = "0123456789abcdef"
        for index in 0..<16 {
            let nibble = Int((value >> UInt64(60 - 4 * index)) & 0xF)
            buffer[offset + index] = digits.utf8Start[nibble]
        }
    }
}
