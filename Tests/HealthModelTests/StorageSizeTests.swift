import HealthModel
import Testing

/// The sizes `healthctl apps quota` and `healthd --app-write-floor` accept: digits, one optional
/// fraction, a unit; nothing else (signs, exponents, NaN/infinity, NUL, overflow past Int64).
@Suite(.timeLimit(.minutes(10))) struct StorageSizeTests {
    @Test(arguments: [("0", 0), ("2048", 2_048), ("500MB", 500_000_000), ("1.5GiB", 1_610_612_736), ("2 kb", 2_000),
                      ("1.5KiB", 1_536), ("9223372036854775807", Int64.max), ("7EiB", 7 << 60), ("0.001KB", 1)] as [(String, Int64)])
    func sizesParse(text: String, bytes: Int64) throws {
        #expect(try StorageSize.parse(text) == bytes)
    }

    @Test(arguments: ["", " ", "-5", "+5", "1e308", "nan", "NaN", "inf", "-inf", "1.", ".5", "1.5", "1..5", "12XB", "five",
                      "1\u{0}0", "5\u{0}", "5\u{FFFD}MB", "٣MB", "99999999999999999999", "9223372036854775807TB", "8EiB",
                      "9223372036854775807.9KB", "0x10", "1,000"])
    func junkIsRefused(text: String) {
        #expect(throws: StorageSize.ParseError.self) { try StorageSize.parse(text) }
    }

    @Test func describingIsExactInBytes() {
        #expect(StorageSize.describe(0) == "0 bytes")
        #expect(StorageSize.describe(40_000) == "39.1 KiB (40000 bytes)")
        #expect(StorageSize.describe(Int64.max) == "8.0 EiB (9223372036854775807 bytes)")
        #expect(StorageSize.short(17_179_869_184) == "16.0 GiB")
    }
}
