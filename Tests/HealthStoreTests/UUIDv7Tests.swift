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

    @Test func idsOfLaterStartDatesSortLater() {
        let early = UUIDv7.make(startingAt: Date(timeIntervalSince1970: 1_764_000_000))
        let late = UUIDv7.make(startingAt: Date(timeIntervalSince1970: 1_764_000_000.003))
        #expect(Self.bytes(early).lexicographicallyPrecedes(Self.bytes(late)))
    }

    /// Issue 11, class 3: two ids an app receives in one millisecond must not tell how many ids
    /// were minted for others in between. With a shared sequence in `rand_a`, the second of two
    /// ids in a millisecond is the first plus one plus the number minted between them; here the
    /// gap is the same random draw whether 0 or 200 ids were minted in between. Every id is
    /// minted at one fixed millisecond, so no pair depends on how fast the machine is.
    @Test(arguments: [0, 1, 200])
    func theGapBetweenTwoIdsOfOneMillisecondCountsNothing(mintedBetween others: Int) {
        let millisecond: UInt64 = 1_764_000_000_000
        let pairs = 3_000
        var gapIsTheCount = 0
        for _ in 0..<pairs {
            let first = UUIDv7.make(atMilliseconds: millisecond)
            for _ in 0..<others { _ = UUIDv7.make(atMilliseconds: millisecond) }
            let second = UUIDv7.make(atMilliseconds: millisecond)
            #expect(Self.milliseconds(first) == millisecond && Self.milliseconds(second) == millisecond)
            if (Int(Self.randomA(second)) - Int(Self.randomA(first))) & 0xFFF == (others + 1) & 0xFFF { gapIsTheCount += 1 }
        }
        // A random 12-bit field matches a given gap once in 4096 draws (under one of 3,000
        // expected): 1% is far above chance and far below the counter's 100%.
        #expect(gapIsTheCount * 100 <= pairs, "\(gapIsTheCount) of \(pairs) gaps equal the ids minted between")
    }

    /// Red team, session 23, F6: an id's time field is its object's start date in whole
    /// milliseconds, whatever the clock says — a sample dated 30 days ago no longer carries the
    /// millisecond it was saved — and two ids of one start date minted apart in time differ in
    /// their random bits only. Before, `make()` stamped the clock's millisecond.
    @Test func theTimeFieldIsTheStartDateNotTheClock() async throws {
        let start = Date(timeIntervalSince1970: 1_761_700_000.123_9)  // 2025-10-29, long past
        let first = UUIDv7.make(startingAt: start)
        try await Task.sleep(for: .milliseconds(5))
        let second = UUIDv7.make(startingAt: start)
        #expect(Self.milliseconds(first) == 1_761_700_000_123 && Self.milliseconds(second) == 1_761_700_000_123)
        #expect(Self.bytes(first)[6] >> 4 == 7 && Self.bytes(second)[6] >> 4 == 7)
    }

    /// Dates outside what 48 bits of milliseconds hold take the nearest end instead of wrapping.
    @Test func startDatesOutsideTheFieldAreClamped() {
        #expect(Self.milliseconds(UUIDv7.make(startingAt: Date(timeIntervalSince1970: -86_400))) == 0)
        #expect(Self.milliseconds(UUIDv7.make(startingAt: .distantFuture)) == 1_000 * 64_092_211_200)
        #expect(UUIDv7.milliseconds(of: Date(timeIntervalSince1970: 1e16)) == UUIDv7.maximumMilliseconds)
    }

    static func bytes(_ uuid: UUID) -> [UInt8] { withUnsafeBytes(of: uuid.uuid) { Array($0) } }
    static func milliseconds(_ uuid: UUID) -> UInt64 { bytes(uuid)[0..<6].reduce(0) { $0 << 8 | UInt64($1) } }
    static func randomA(_ uuid: UUID) -> UInt16 { UInt16(bytes(uuid)[6] & 0x0F) << 8 | UInt16(bytes(uuid)[7]) }
}
