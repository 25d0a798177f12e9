#include "escape_attempts.h"

#include "probe_output.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

void report_process_state(void) {
    probe_line("no_new_privs", "%d", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
    probe_line("dumpable", "%d", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
    struct rlimit core;
    if (getrlimit(RLIMIT_CORE, &core) == 0) {
        probe_line("core_limit", "%llu/%llu", (unsigned long long)core.rlim_cur,
                   (unsigned long long)core.rlim_max);
    } else {
        probe_line("core_limit", "probe error: getrlimit failed");
    }
}

/* Sends a few bytes through one end of the kept pair and reads them back on
   the other: the descriptors are open and are still the same connection. */
static void report_kept_pair(const int kept_pair[2]) {
    static const char message[] = "ping";
    char received[sizeof message] = { 0 };
    if (write(kept_pair[0], message, sizeof message) != (ssize_t)sizeof message) {
        probe_errno_line("kept_fd", errno);
        return;
    }
    ssize_t n = read(kept_pair[1], received, sizeof received);
    if (n != (ssize_t)sizeof message || memcmp(received, message, sizeof message) != 0) {
        probe_line("kept_fd", "broken (read %zd bytes)", n);
        return;
    }
    probe_line("kept_fd", "usable");
}

static void report_stray(int stray_fd) {
    int flags = fcntl(stray_fd, F_GETFD);
    if (flags < 0) {
        probe_line("stray_fd", errno == EBADF ? "closed" : "probe error: fcntl failed");
    } else if (flags & FD_CLOEXEC) {
        probe_line("stray_fd", "close-on-exec");
    } else {
        probe_line("stray_fd", "inherited");
    }
}

void report_descriptors(const int kept_pair[2], int stray_fd) {
    report_kept_pair(kept_pair);
    report_stray(stray_fd);
}
