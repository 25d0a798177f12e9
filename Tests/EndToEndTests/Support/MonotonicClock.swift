import Glibc

/// CLOCK_MONOTONIC in nanoseconds: one clock for every process of the machine, so an instant
/// taken in this test process compares with one a confined app printed (leak-probe-client's
/// `timed-stream`).
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
