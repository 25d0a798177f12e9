/* An LD_PRELOAD shim that makes a process see a kernel without Landlock: every
   landlock_create_ruleset() through libc's syscall() fails with EOPNOTSUPP, as on a kernel
   built with Landlock but booted without it in lsm= (Debian's default before it was listed).
   Every other system call passes through unchanged. Built by the tests that load it
   (Tests/TestSupport/PreloadShim.swift); outside every target. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/syscall.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif

long syscall(long number, ...) {
    static long (*real)(long, ...);
    if (number == SYS_landlock_create_ruleset) {
        errno = EOPNOTSUPP;
        return -1;
    }
    if (real == NULL) {
        real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
        if (real == NULL) {
            errno = ENOSYS;
            return -1;
        }
    }
    /* syscall(2) takes at most six arguments; reading six longs is what glibc's own does. */
    va_list arguments;
    va_start(arguments, number);
    long a[6];
    for (int i = 0; i < 6; i++) a[i] = va_arg(arguments, long);
    va_end(arguments);
    return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
