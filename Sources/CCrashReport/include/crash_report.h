/* A fatal signal's location, written to healthd's log before it dies. Swift's own crash
 * backtracer is a separate program it starts with posix_spawn, which healthd's seccomp filter
 * (no exec) refuses, so a trap left only "Backtracing ... failed" in the log. Mechanism only;
 * why and how to read the line: Sources/healthd/CrashReport.swift. */
#pragma once

/* Installs a handler for SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE and SIGABRT that writes one
 * line to `fd` (the program name, the signal, each frame as an offset into the executable) and
 * then lets the signal kill the process as it would have. `name` is copied (at most 63 bytes).
 * Call once, on the main thread, before other threads start. Returns 1 when every handler was
 * installed, 0 otherwise. */
int ohk_crash_report_install(int fd, const char *name);
