import Testing

@testable import HealthModel

/// `ByteSize`: what `healthctl apps storage --bound` reads and healthd's storage messages say.
@Suite(.timeLimit(.minutes(10))) struct ByteSizeTests {
    @Test func sizesAreReadInBinaryUnits() {
        #expect(ByteSize.parse("4096") == 4_096)
        #expect(ByteSize.parse("1KiB") == 1_024)
        #expect(ByteSize.parse("512MiB") == 512 << 20)
        #expect(ByteSize.parse("2 GiB") == 2 << 30)
        #expect(ByteSize.parse("1.5g") == 3 << 29)
        #expect(ByteSize.parse("2GB") == 2 << 30)
        #expect(ByteSize.parse("10b") == 10)
    }

    @Test func whatIsNoSizeIsRefused() {
        for text in ["", "MiB", "-1MiB", "1e3", "one", "1..2k", "nan", "99999999TiB"] {
            #expect(ByteSize.parse(text) == nil, "\(text)")
        }
    }

    @Test func sizesAreShownWithTheirUnit() {
        #expect(ByteSize.text(12) == "12 bytes")
        #expect(ByteSize.text(1) == "1 byte")
        #expect(ByteSize.text(1_024) == "1 KiB")
        #expect(ByteSize.text(1_536) == "1.5 KiB")
        #expect(ByteSize.text(512 << 20) == "512 MiB")
        #expect(ByteSize.text(4 << 30) == "4 GiB")
    }
}
