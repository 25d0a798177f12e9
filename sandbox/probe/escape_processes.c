/* GNU: process_vm_readv. */
#define _GNU_SOURCE

#include "escape_attempts.h"

#include "child_attempt.h"
#include "probe_output.h"

#include <errno.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static int ptrace_traceme(const void *unused) {
    (void)unused;
    return ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0 ? 0 : errno;
}

/* PTRACE_SEIZE makes the same permission check as PTRACE_ATTACH but does not
   stop the target: if the sandbox were broken, the test runner (the parent)
   must not be left stopped. */
static void try_seize_parent(void) {
    pid_t parent = getppid();
    long rc = ptrace(PTRACE_SEIZE, parent, NULL, NULL);
    probe_errno_line("ptrace_seize_parent", rc < 0 ? errno : 0);
    if (rc == 0) {
        ptrace(PTRACE_DETACH, parent, NULL, NULL);
    }
}

/* The sleeper is the probe's own unconfined child: without a sandbox, attaching
   to it is allowed even where Yama restricts ptrace to descendants. */
static void try_attach_sleeper(pid_t sleeper) {
    long rc = ptrace(PTRACE_ATTACH, sleeper, NULL, NULL);
    probe_errno_line("ptrace_attach_sleeper", rc < 0 ? errno : 0);
    if (rc == 0) {
        int status;
        waitpid(sleeper, &status, 0);
        ptrace(PTRACE_DETACH, sleeper, NULL, NULL);
    }
}

static void try_read_memory(const char *name, pid_t target) {
    int copy = 0;
    struct iovec local = { .iov_base = &copy, .iov_len = sizeof copy };
    struct iovec remote = { .iov_base = (void *)&probe_sleeper_marker,
                            .iov_len = sizeof copy };
    ssize_t n = process_vm_readv(target, &local, 1, &remote, 1, 0);
    probe_errno_line(name, n < 0 ? errno : 0);
}

void attempt_process_escapes(const struct probe_fixtures *f) {
    attempt_in_child("ptrace_traceme", ptrace_traceme, NULL);
    try_seize_parent();
    try_attach_sleeper(f->sleeper);
    try_read_memory("process_vm_readv_parent", getppid());
    try_read_memory("process_vm_readv_sleeper", f->sleeper);
    /* Signal 0 only checks permission; nothing is delivered. */
    probe_errno_line("signal_parent", kill(getppid(), 0) < 0 ? errno : 0);
}
