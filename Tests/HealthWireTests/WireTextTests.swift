import Foundation
import Testing
@testable import HealthModel
@testable import HealthWire

/// Strings on the wire: a NUL or invalid UTF-8 in any string field is refused when decoded,
/// never truncated or replaced (`WireText`, checked by `WireDepthGuard` on raw bytes).
@Suite(.timeLimit(.minutes(10))) struct WireTextTests {
    @Test(arguments: [
        ([UInt8]("count".utf8), nil),
        ([UInt8]("café ❤️".utf8), nil),
        ([], nil),
        ([0x63, 0x00, 0x64], WireText.Problem.nul(offset: 1)),
        ([0x63, 0xC0, 0x80], WireText.Problem.nul(offset: 1)),
        ([0x63, 0xFF], WireText.Problem.invalidUTF8(offset: 1)),
        ([0xED, 0xA0, 0x80], WireText.Problem.invalidUTF8(offset: 0)),  // a UTF-16 surrogate
        ([0xE2, 0x82], WireText.Problem.invalidUTF8(offset: 0)),  // truncated sequence
    ] as [([UInt8], WireText.Problem?)])
    func theRule(_ bytes: [UInt8], _ expected: WireText.Problem?) {
        #expect(WireText.problem(in: bytes) == expected)
    }

    /// The ASCII fast path reads eight bytes at a time: a bad byte at any position of a word
    /// or of the tail, in strings of every length around the word size, is still found.
    @Test(arguments: [UInt8(0x00), 0x80, 0xC0, 0xFF])
    func aBadByteAnywhereInAnASCIIStringIsFound(_ bad: UInt8) {
        for length in 1...25 {
            for position in 0..<length {
                var bytes = [UInt8](repeating: 0x61, count: length)
                bytes[position] = bad
                if bad == 0xC0, position + 1 < length { bytes[position + 1] = 0x80 }  // C0 80: a NUL
                let expected: WireText.Problem = bad == 0 || (bad == 0xC0 && position + 1 < length)
                    ? .nul(offset: position) : .invalidUTF8(offset: position)
                #expect(WireText.problem(in: bytes) == expected, "length \(length), byte \(bad) at \(position)")
                #expect(WireText.problem(in: bytes[...]) == expected, "as a slice")
            }
            #expect(WireText.problem(in: [UInt8](repeating: 0x7F, count: length)) == nil)
        }
    }

    static func save(unit: String, metadataKey: String = "Note") -> SampleList {
        let record = SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue,
                                  startDate: Date(timeIntervalSince1970: 1_700_000_000),
                                  endDate: Date(timeIntervalSince1970: 1_700_000_060),
                                  value: .quantity(10, unit: unit), metadata: [metadataKey: .string("x")])
        return SampleList([record])
    }

    @Test func aNulInsideAUnitIsRefusedByTheReceiverNotTruncated() throws {
        // The sender cannot pack a NUL through protobuf-c's strlen; it sends C0 80 instead.
        let bytes = Self.save(unit: "count\u{0}junk").wireBytes()
        let error = try #require(throws: WireDecodeError.self) { try SampleList(wire: bytes) }
        #expect("\(error)".contains("contains a NUL character at byte 5"), "\(error)")
    }

    @Test func aNulInsideAMetadataKeyIsRefused() throws {
        let bytes = Self.save(unit: "count", metadataKey: "Ke\u{0}y").wireBytes()
        let error = try #require(throws: WireDecodeError.self) { try SampleList(wire: bytes) }
        #expect("\(error)".contains("NUL"), "\(error)")
    }

    @Test func invalidUTF8FromAHostilePeerIsRefusedNotReplaced() throws {
        // Replace the unit's bytes in an honest encoding with an invalid byte of the same length.
        var bytes = Self.save(unit: "countX").wireBytes()
        let marker = [UInt8]("countX".utf8)
        let at = try #require((0...(bytes.count - marker.count)).first { Array(bytes[$0..<($0 + marker.count)]) == marker })
        bytes[at + 5] = 0xFF
        let error = try #require(throws: WireDecodeError.self) { try SampleList(wire: bytes) }
        #expect("\(error)".contains("not valid UTF-8 at byte 5"), "\(error)")
    }

    @Test func ordinaryUnicodeStringsRoundTrip() throws {
        let decoded = try SampleList(wire: Self.save(unit: "count", metadataKey: "Notiz 📝 über").wireBytes())
        #expect(decoded.samples.first?.metadata["Notiz 📝 über"] == .string("x"))
    }
}
