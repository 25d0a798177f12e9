import Foundation
import Testing

@testable import HealthStore

/// Issue 17: a write mints its UUIDv7s many per `getrandom` (`UUIDv7Minter`). They must still be
/// RFC 9562 version-7 ids of each object's start date (never the clock: red team, session 23,
/// F6), all distinct, with fresh random bits each: consecutive ids must not differ by a count
/// (UUIDv7Tests' privacy property).
@Suite(.timeLimit(.minutes(10))) struct UUIDv7MinterTests {
    @Test func idsOfOneMinterAreDistinctVersion7IdsOfTheirStartDates() {
        var minter = UUIDv7Minter()
        // Several refills, and a part of one; start dates a minute apart, years in the past.
        let starts = (0..<(UUIDv7Minter.idsPerRefill * 5 + 3)).map { Date(timeIntervalSince1970: 1_500_000_000 + Double($0) * 60) }
        let ids = starts.map { minter.next(startingAt: $0) }
        #expect(Set(ids).count == ids.count)
        for (id, start) in zip(ids, starts) {
            let bytes = UUIDv7Tests.bytes(id)
            #expect(bytes[6] >> 4 == 7 && bytes[8] & 0xC0 == 0x80)
            #expect(UUIDv7Tests.milliseconds(id) == UInt64(start.timeIntervalSince1970 * 1000))
        }
    }

    /// Every id's 74 random bits are its own draw: no two ids of a minter share their random
    /// part, and consecutive ids' `rand_a` does not step by one (a counter) more often than
    /// chance (once in 4096).
    @Test func everyIdHasItsOwnRandomBits() {
        var minter = UUIDv7Minter()
        let ids = (0..<3_000).map { _ in minter.next(startingAt: Date(timeIntervalSince1970: 1_764_000_000)) }
        let randomParts = Set(ids.map { Array(UUIDv7Tests.bytes($0)[6...]) })
        #expect(randomParts.count == ids.count)
        let steps = zip(ids, ids.dropFirst()).filter { first, second in
            (Int(UUIDv7Tests.randomA(second)) - Int(UUIDv7Tests.randomA(first))) & 0xFFF == 1
        }.count
        #expect(steps * 100 <= ids.count, "\(steps) of \(ids.count) consecutive ids step rand_a by one")
    }
}
