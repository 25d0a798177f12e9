/* GNU: strerrorname_np, sigabbrev_np. */
#define _GNU_SOURCE

#include "probe_output.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

static const char *stage_prefix = "";

void probe_set_stage_prefix(const char *prefix) {
    stage_prefix = prefix;
}

void probe_line(const char *name, const char *format, ...) {
    printf("%s%s: ", stage_prefix, name);
    va_list args;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    printf("\n");
    /* Flushed before any fork or exec, so no line is printed twice or lost. */
    fflush(stdout);
}

void probe_errno_line(const char *name, int errnum) {
    if (errnum == 0) {
        probe_line(name, "allowed");
        return;
    }
    const char *errno_name = strerrorname_np(errnum);
    if (errno_name != NULL) {
        probe_line(name, "denied (%s)", errno_name);
    } else {
        probe_line(name, "denied (errno %d)", errnum);
    }
}

void probe_status_line(const char *name, int wait_status) {
    if (WIFEXITED(wait_status)) {
        probe_errno_line(name, WEXITSTATUS(wait_status));
    } else if (WIFSIGNALED(wait_status)) {
        const char *signal_name = sigabbrev_np(WTERMSIG(wait_status));
        probe_line(name, "killed (SIG%s)", signal_name != NULL ? signal_name : "?");
    } else {
        probe_line(name, "unexpected wait status 0x%x", wait_status);
    }
}
