import Foundation
import Glibc

/// Mints the UUIDv7s of one write (`UUIDSupply`) with the random bits of many ids drawn by one
/// `arc4random_buf` (one `getrandom`).
///
/// `UUIDv7.make(startingAt:)` calls `getrandom` two or three times per id (a system call each,
/// and the kernel's CSPRNG state set up each time): with 1,000 samples per save that was more
/// than half of `SampleRepository.write` and 8 % of healthd's CPU in a batched save
/// (Benchmarks/README.md, "Batched saves"). The ids are the same kind: the object's start date
/// in whole milliseconds and 74 fresh random bits each from the kernel's CSPRNG, no counter,
/// nothing shared between ids and no clock read (`UUIDv7`'s privacy reasoning holds unchanged).
struct UUIDv7Minter {
    /// Ids per refill: one draw of 640 bytes serves 64 ids.
    static let idsPerRefill = 64
    private static let randomBytesPerID = 10  // 12 bits of rand_a and 62 of rand_b, from 80 drawn

    /// Allocated on the first id: a supply of preassigned ids never mints.
    private var random: [UInt8] = []
    private var used = UUIDv7Minter.idsPerRefill

    /// The id of an object starting at `startDate` (`UUIDv7.make(startingAt:)`).
    mutating func next(startingAt startDate: Date) -> UUID {
        let milliseconds = UUIDv7.milliseconds(of: startDate)
        if used == Self.idsPerRefill { refill() }
        let offset = used * Self.randomBytesPerID
        used += 1
        return random.withUnsafeBytes { bytes in
            let randomA = UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
            var randomB: UInt64 = 0
            for index in 2..<Self.randomBytesPerID { randomB = randomB << 8 | UInt64(bytes[offset + index]) }
            return UUIDv7.make(milliseconds: milliseconds, randomA: randomA & 0xFFF, randomB: randomB)
        }
    }

    private mutating func refill() {
        used = 0
        if random.isEmpty { random = [UInt8](repeating: 0, count: Self.idsPerRefill * Self.randomBytesPerID) }
        // glibc's arc4random_buf: the kernel's CSPRNG through getrandom(2) (one call for the whole
        // buffer), /dev/urandom where getrandom is missing; it aborts rather than return weak bytes.
        random.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { arc4random_buf(base, buffer.count) }
        }
    }
}
