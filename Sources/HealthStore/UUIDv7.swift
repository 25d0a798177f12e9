public import Foundation
import Synchronization

/// Time-ordered UUIDs (RFC 9562 version 7) for every object the broker stores.
///
/// Random (v4) UUIDs land at random places in the `objects.uuid` UNIQUE index and cut insert
/// throughput several-fold; v7 UUIDs sort by creation time, so inserts append at the index's
/// right edge. Within one millisecond, the 12-bit `rand_a` field is a counter (RFC 9562 §6.2,
/// method 1), so UUIDs minted by this process are strictly increasing.
public enum UUIDv7 {
    private static let state = Mutex((millis: UInt64(0), counter: UInt16(0)))

    public static func make(now: Date = Date()) -> UUID {
        let wallMillis = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        let (millis, counter) = state.withLock { state -> (UInt64, UInt16) in
            if wallMillis > state.millis {
                state = (wallMillis, UInt16.random(in: 0..<0x400))  // leave headroom for the counter
            } else if state.counter < 0xFFF {
                state.counter += 1
            } else {
                state = (state.millis + 1, 0)  // counter exhausted: borrow the next millisecond
            }
            return (state.millis, state.counter)
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: millis >> (8 * (5 - index))) }
        bytes[6] = 0x70 | UInt8(counter >> 8)
        bytes[7] = UInt8(truncatingIfNeeded: counter)
        var random = SystemRandomNumberGenerator()
        let tail = random.next() as UInt64
        for index in 8..<16 { bytes[index] = UInt8(truncatingIfNeeded: tail >> (8 * (15 - index))) }
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
