import CCrashReport

/// Where healthd died, in its log. A Swift runtime trap (an overflow, an index out of range, a
/// force unwrap) is SIGILL; Swift's backtracer would name the line, but it is a separate
/// program the runtime starts with posix_spawn, and healthd's seccomp filter forbids exec, so
/// the log said only "*** Signal 4: Backtracing ... failed ***" (session 21: an app's unit
/// string trapped healthd and nothing in the log said where). This handler writes one line —
/// the signal and each frame as an offset into the healthd executable — and healthd then dies
/// by the same signal as before (systemd's Restart=on-failure is unchanged). To read it:
///
///     addr2line -f -i -C -e /usr/bin/healthd 0x1a2b3c 0x1a2c00 …
///
/// with the offsets from the line (a debug or release build with debug information names file
/// and line; a stripped one, the function at best). The line holds addresses only: no health
/// values, and nothing an app sent. A stack overflow on a thread other than the main one is not
/// reported (no alternate signal stack there): it dies by SIGSEGV as before.
enum CrashReport {
    /// Call once, early, on the main thread. `journal`: stderr is systemd's journal, so the line
    /// carries priority 2 (critical).
    @discardableResult
    static func install(journal: Bool) -> Bool {
        ohk_crash_report_install(2, journal ? "<2>healthd" : "healthd") == 1
    }
}
