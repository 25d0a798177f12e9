import Foundation
import Testing

@testable import HealthStore

@Suite(.timeLimit(.minutes(10))) struct UUIDv7Tests {
    @Test func fieldsFollowRFC9562() {
        let uuid = UUIDv7.make(milliseconds: 0x0123_4567_89AB, randomA: 0xCDE, randomB: .max)
        let bytes = Self.bytes(uuid)
        #expect(Array(bytes[0..<6]) == [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB])
        #expect(bytes[6] == 0x7C && bytes[7] == 0xDE)
        #expect(bytes[8] & 0xC0 == 0x80)
    }

    @Test func idsOfLaterMillisecondsSortLater() async throws {
        let early = UUIDv7.make()
        try await Task.sleep(for: .milliseconds(3))
        let late = UUIDv7.make()
        #expect(Self.bytes(early).lexicographicallyPrecedes(Self.bytes(late)))
    }

    /// Issue 11, class 3: two ids an app receives in one millisecond must not tell how many ids
    /// were minted for others in between. With a shared sequence in `rand_a`, the second of two
    /// ids in a millisecond is the first plus one plus the number minted between them; here the
    /// gap is the same random draw whether 0 or 200 ids were minted in between.
    @Test(arguments: [0, 1, 200])
    func theGapBetweenTwoIdsOfOneMillisecondCountsNothing(mintedBetween others: Int) {
        var sameMillisecond = 0, gapIsTheCount = 0
        for _ in 0..<3_000 {
            let first = UUIDv7.make()
            for _ in 0..<others { _ = UUIDv7.make() }
            let second = UUIDv7.make()
            guard Self.milliseconds(first) == Self.milliseconds(second) else { continue }
            sameMillisecond += 1
            if (Int(Self.randomA(second)) - Int(Self.randomA(first))) & 0xFFF == (others + 1) & 0xFFF { gapIsTheCount += 1 }
        }
        #expect(sameMillisecond > 100, "the machine was too slow to mint two ids in one millisecond")
        // A random 12-bit field matches a given gap once in 4096 draws: 1% is far above chance
        // and far below the counter's 100%.
        #expect(gapIsTheCount * 100 <= sameMillisecond, "\(gapIsTheCount) of \(sameMillisecond) gaps equal the ids minted between")
    }

    static func bytes(_ uuid: UUID) -> [UInt8] { withUnsafeBytes(of: uuid.uuid) { Array($0) } }
    static func milliseconds(_ uuid: UUID) -> UInt64 { bytes(uuid)[0..<6].reduce(0) { $0 << 8 | UInt64($1) } }
    static func randomA(_ uuid: UUID) -> UInt16 { UInt16(bytes(uuid)[6] & 0x0F) << 8 | UInt16(bytes(uuid)[7]) }
}
