/* GNU: CLONE_NEWUSER, unshare. */
#define _GNU_SOURCE

#include "escape_attempts.h"

#include "child_attempt.h"
#include "probe_output.h"

#include <errno.h>
#include <linux/keyctl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Each attempt runs in a child (see child_attempt.h) and, if the kernel lets
   it through, has no effect beyond that child. Arguments are the harmless
   minimum; the seccomp filter answers before the kernel looks at them. */

static int errno_of(long rc) {
    return rc < 0 ? errno : 0;
}

static int io_uring_setup_attempt(const void *unused) {
    (void)unused;
    unsigned char params[120] = { 0 }; /* struct io_uring_params */
    long fd = syscall(SYS_io_uring_setup, 1, params);
    return errno_of(fd);
}

static int bpf_attempt(const void *unused) {
    (void)unused;
    unsigned char attr[128] = { 0 };
    return errno_of(syscall(SYS_bpf, 0 /* BPF_MAP_CREATE */, attr, sizeof attr));
}

static int keyctl_attempt(const void *unused) {
    (void)unused;
    return errno_of(syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0));
}

static int kcmp_attempt(const void *unused) {
    (void)unused;
    pid_t self = getpid();
    return errno_of(syscall(SYS_kcmp, self, self, 0 /* KCMP_FILE */, 0, 0));
}

static int userfaultfd_attempt(const void *unused) {
    (void)unused;
    return errno_of(syscall(SYS_userfaultfd, 0));
}

static int mount_attempt(const void *unused) {
    (void)unused;
    /* A target and file system that do not exist: harmless even as root. */
    return errno_of(mount("none", "/nonexistent-ohk-probe", "ohk-no-such-fs", 0, NULL));
}

static int unshare_user_attempt(const void *unused) {
    (void)unused;
    return errno_of(unshare(CLONE_NEWUSER));
}

/* Raw clone with a namespace flag; the new child exits at once. */
static int clone_user_attempt(const void *unused) {
    (void)unused;
    long pid = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, NULL, NULL, NULL, 0);
    if (pid == 0) {
        _exit(0);
    }
    return errno_of(pid);
}

static int clone3_attempt(const void *unused) {
    (void)unused;
    struct clone_args args = { .exit_signal = SIGCHLD };
    long pid = syscall(SYS_clone3, &args, sizeof args);
    if (pid == 0) {
        _exit(0);
    }
    return errno_of(pid);
}

static int personality_attempt(const void *unused) {
    (void)unused;
    return errno_of(personality(PER_LINUX | ADDR_NO_RANDOMIZE));
}

/* On a socket, not a terminal: unconfined this fails with ENOTTY, so the test
   never types into a real terminal; confined, seccomp answers first. */
static int terminal_injection_attempt(const void *kept_fd) {
    char c = 'x';
    return errno_of(ioctl(*(const int *)kept_fd, TIOCSTI, &c));
}

#if defined(__x86_64__)
/* getpid through the 32-bit entry point: the filter's architecture check must
   kill the process, since the i386 syscall numbers differ. */
static int foreign_arch_attempt(const void *unused) {
    (void)unused;
    long rc;
    __asm__ volatile("int $0x80" : "=a"(rc) : "a"(20L /* i386 getpid */) : "memory");
    return rc < 0 ? (int)-rc : 0;
}

/* getpid with the x32 bit set: same AUDIT_ARCH as x86_64, so the filter must
   reject the bit itself. */
static int x32_attempt(const void *unused) {
    (void)unused;
    return errno_of(syscall(0x40000000L | SYS_getpid));
}
#endif

void attempt_kernel_escapes(const struct probe_fixtures *f) {
    attempt_in_child("io_uring_setup", io_uring_setup_attempt, NULL);
    attempt_in_child("bpf", bpf_attempt, NULL);
    attempt_in_child("keyctl", keyctl_attempt, NULL);
    attempt_in_child("kcmp", kcmp_attempt, NULL);
    attempt_in_child("userfaultfd", userfaultfd_attempt, NULL);
    attempt_in_child("mount", mount_attempt, NULL);
    attempt_in_child("unshare_user_namespace", unshare_user_attempt, NULL);
    attempt_in_child("clone_user_namespace", clone_user_attempt, NULL);
    attempt_in_child("clone3", clone3_attempt, NULL);
    attempt_in_child("personality_no_aslr", personality_attempt, NULL);
    attempt_in_child("tiocsti", terminal_injection_attempt, &f->kept_pair[0]);
#if defined(__x86_64__)
    attempt_in_child("foreign_arch_syscall", foreign_arch_attempt, NULL);
    attempt_in_child("x32_syscall", x32_attempt, NULL);
#else
    probe_line("foreign_arch_syscall", "skipped (not x86_64)");
    probe_line("x32_syscall", "skipped (not x86_64)");
#endif
}
