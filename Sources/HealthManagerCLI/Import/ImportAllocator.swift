import CAllocator

/// glibc's allocator settings for `healthctl import`.
///
/// Each batch's packed samples grow to about 2 MiB (`ImportPipeline.maxBatchBytes`) and are freed
/// once healthd has answered; by default glibc serves blocks that large with `mmap` and unmaps
/// them when freed, so every batch faulted its pages in afresh, each zeroed by the kernel: page
/// faults were 5 % of the import's CPU (session 11, Benchmarks/README.md). Served from the heap,
/// and with the heap keeping what it frees, the next batch reuses the same pages. The memory held
/// is bounded by what the import holds at once (`ImportPipeline`'s open, queued and in-flight
/// batches), so the process stays flat whatever the file's size.
enum ImportAllocator {
    static let mmapThreshold: Int32 = 8 << 20
    static let trimThreshold: Int32 = 64 << 20

    /// Call before the import starts its reader thread. False when glibc refused a setting (the
    /// import runs on with the defaults, a little slower).
    @discardableResult
    static func keepBatchBuffers() -> Bool {
        ohk_set_allocator_thresholds(mmapThreshold, trimThreshold) == 1
    }
}
