import CAllocator

/// glibc's allocator settings for healthd's large per-query buffers.
///
/// A year of per-minute samples is half a million rows: a statistics query holds arrays of
/// 10–25 MB while it computes. By default glibc serves such a block with its own `mmap` and
/// gives it back with `munmap` when freed, and shrinks the heap top past 128 KiB free — so the
/// next query faults the same amount in again, every page zeroed by the kernel. Profiled during
/// a year's daily collection, the kernel (page faults, zeroing pages) took 30 % of healthd's
/// time; 7 % with these settings and fewer copies in the statistics (Benchmarks/README.md,
/// "Profiles of the query and the year-long collection").
///
/// Blocks below 32 MiB (glibc's largest allowed threshold on 64-bit) now come from the heap, and
/// the heap keeps up to 128 MiB free before returning it: a repeated query reuses its memory.
/// The cost is resident memory held between queries (after year-long collections: 75–111 MiB
/// against 39–88 MiB; the goal is under 200 MB). Freed blocks stay inside this non-dumpable
/// process, as every other buffer holding decrypted rows does.
enum AllocatorTuning {
    static let mmapThreshold: Int32 = 32 << 20
    static let trimThreshold: Int32 = 128 << 20

    /// Call before healthd starts any thread. Returns false if glibc refused a setting (healthd
    /// runs on with its defaults: slower large queries, nothing else).
    @discardableResult
    static func keepLargeBuffers() -> Bool {
        ohk_set_allocator_thresholds(mmapThreshold, trimThreshold) == 1
    }
}
