public import Foundation
import Synchronization

/// Time-ordered UUIDs (RFC 9562 version 7): 48-bit Unix milliseconds, then random
/// bits. Consecutive ids land next to each other in a B-tree index, so inserting
/// them keeps the insert rate of an integer key; random (v4) ids under a UNIQUE
/// index scatter writes over the whole index and cut the insert rate several-fold.
public enum UUIDv7 {
    /// Last timestamp and 12-bit sequence handed out, so ids made in the same
    /// millisecond by this process still sort in creation order.
    private static let clock = Mutex<(milliseconds: UInt64, sequence: UInt16)>((0, 0))

    public static func make() -> UUID {
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        let (milliseconds, sequence) = clock.withLock { state in
            if now > state.milliseconds {
                state = (now, UInt16.random(in: 0..<0x800))
            } else if state.sequence < 0xFFF {
                state.sequence += 1
            } else {
                // 4096 ids in one millisecond: borrow the next millisecond.
                state = (state.milliseconds + 1, 0)
            }
            return state
        }
        return make(milliseconds: milliseconds, sequence: sequence, random: UInt64.random(in: .min ... .max))
    }

    /// Lays out the fields: 48-bit time, version 7, 12-bit sequence, variant 10,
    /// 62 random bits.
    static func make(milliseconds: UInt64, sequence: UInt16, random: UInt64) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64(i))) }
        bytes[6] = 0x70 | UInt8(truncatingIfNeeded: sequence >> 8 & 0x0F)
        bytes[7] = UInt8(truncatingIfNeeded: sequence)
        for i in 0..<8 { bytes[8 + i] = UInt8(truncatingIfNeeded: random >> (56 - 8 * UInt64(i))) }
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
