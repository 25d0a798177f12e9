/// A 128-bit FNV-1a digest in hex: the same text gives the same identifier in every run and on
/// every machine (Swift's `Hasher` is seeded per process). It names imported samples for
/// de-duplication only — collisions between a person's own records are what matters, not an
/// adversary — so two independent 64-bit lanes are plenty (a collision among 10^8 records has a
/// probability near 10^-22).
enum StableHash {
    static func hex(_ text: String) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x84222325_cbf29ce4
        for byte in text.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second ^= second >> 29
        }
        return hex64(first) + hex64(second)
    }

    private static func hex64(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
