public import Foundation

/// The UUIDs of stored objects (RFC 9562 version 7): 48 bits of Unix milliseconds — the
/// object's own start date, never the clock — then random bits.
///
/// Why the start date (red team, session 23, F6): a UUID goes to every app that may read the
/// object. With the broker's clock in its time field, each reader learned when another app
/// saved each sample (a weight dated 30 days ago, saved at 03:12 last night), which HealthKit
/// never tells (its UUIDs are random, and an `HKObject` has no creation date). The start date is
/// shown to every reader of the object anyway, and a deleted object's UUID is only sent to a
/// reader whose scope covers its start (`deleted_objects` keeps `start_us`, and
/// `SampleSQL.visibility` applies to it as to live rows), so the time field tells nothing new.
///
/// Why version 7 and not random (v4) ids: ids of neighbouring milliseconds land next to each
/// other in the `objects.uuid` UNIQUE index. Live saves carry start dates near now, so the
/// index still grows at its right edge; an import or backfill inserts each type's run of
/// ascending dates as a sequential walk through the index. Random ids scatter every insert
/// over the whole index (Benchmarks/README.md, "Session 23: object UUIDs from start dates", for the
/// page writes each layout costs). The SDK also tells its own placeholder ids (v4) from stored
/// ones by the version (`HKWorkoutBuilder.isUnsaved`).
///
/// No state is shared between ids (RFC 9562 §6.2's optional counter methods are not used):
/// `rand_a` and `rand_b` are fresh random bits every time. A broker-wide counter would tell an
/// app how many samples other apps saved between two of its own saves (DESIGN.md §7.3). Ids of
/// one start date therefore do not sort in creation order, and no code relies on any order of
/// ids: rows keep their insertion order in `objects.id`, and the change feed its own sequence.
public enum UUIDv7 {
    /// The id of an object starting at `startDate`, with fresh random bits: its bits are a
    /// function of the start date and of randomness only.
    public static func make(startingAt startDate: Date) -> UUID {
        make(atMilliseconds: milliseconds(of: startDate))
    }

    /// The time field for `date`: whole Unix milliseconds, clamped to what 48 bits hold (a
    /// start before 1970 takes 0; one after the year 10889, the largest).
    public static func milliseconds(of date: Date) -> UInt64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard milliseconds.isFinite, milliseconds > 0 else { return 0 }
        return milliseconds >= Double(maximumMilliseconds) ? maximumMilliseconds : UInt64(milliseconds)
    }

    static let maximumMilliseconds: UInt64 = (1 << 48) - 1

    /// An id for the given millisecond with fresh random bits, callable with a fixed time so
    /// that tests can mint many ids of one millisecond.
    static func make(atMilliseconds milliseconds: UInt64) -> UUID {
        var generator = SystemRandomNumberGenerator()
        return make(milliseconds: milliseconds,
                    randomA: UInt16.random(in: 0...0xFFF, using: &generator),
                    randomB: UInt64.random(in: .min ... .max, using: &generator))
    }

    /// Lays out the fields: 48-bit time, version 7, 12 random bits (`rand_a`), variant 10,
    /// 62 random bits (`rand_b`).
    static func make(milliseconds: UInt64, randomA: UInt16, randomB: UInt64) -> UUID {
        // Written in place (no array per id: a batched save mints a thousand).
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { buffer in
            for i in 0..<6 { buffer[i] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64(i))) }
            buffer[6] = 0x70 | UInt8(truncatingIfNeeded: randomA >> 8 & 0x0F)
            buffer[7] = UInt8(truncatingIfNeeded: randomA)
            for i in 0..<8 { buffer[8 + i] = UInt8(truncatingIfNeeded: randomB >> (56 - 8 * UInt64(i))) }
            buffer[8] = 0x80 | (buffer[8] & 0x3F)
        }
        return UUID(uuid: bytes)
    }
}
