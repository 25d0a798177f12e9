#include "fd_inheritance.h"

#include "step_error.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * Close-on-exec rather than close: the launcher is a Swift process whose
 * runtime threads own descriptors (epoll, eventfd) until execve. Closing them
 * under those threads would let a later open() reuse their numbers; marking
 * them close-on-exec lets the kernel close them at the one moment that
 * matters, when untrusted code starts.
 */

static const char step[] = "fds";

int ohk_fds_check(const int *keep_fds, size_t n_keep_fds, char *err, size_t err_len) {
    for (size_t i = 0; i < n_keep_fds; i++) {
        if (keep_fds[i] < 0) {
            return ohk_step_fail(err, err_len, step, EBADF, "fd %d to keep is negative",
                                 keep_fds[i]);
        }
        if (fcntl(keep_fds[i], F_GETFD) < 0) {
            return ohk_step_fail(err, err_len, step, errno, "fd %d to keep is not open",
                                 keep_fds[i]);
        }
    }
    return 0;
}

static int keep_across_exec(int fd, char *err, size_t err_len) {
    int flags = fcntl(fd, F_GETFD);
    if (flags < 0 || fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC) < 0) {
        return ohk_step_fail(err, err_len, step, errno, "cannot clear FD_CLOEXEC on fd %d", fd);
    }
    return 0;
}

/* Smallest kept descriptor >= floor, or -1. The list is short (the broker
   socket and maybe a few more), so a scan beats sorting a copy. */
static int next_kept_fd(const int *keep_fds, size_t n_keep_fds, unsigned floor) {
    int next = -1;
    for (size_t i = 0; i < n_keep_fds; i++) {
        int fd = keep_fds[i];
        if ((unsigned)fd >= floor && (next < 0 || fd < next)) {
            next = fd;
        }
    }
    return next;
}

static int mark_close_on_exec(unsigned first, unsigned last, char *err, size_t err_len) {
    if (syscall(SYS_close_range, first, last, CLOSE_RANGE_CLOEXEC) != 0) {
        return ohk_step_fail(err, err_len, step, errno,
                             "cannot mark fds %u..%u close-on-exec (needs Linux 5.11)",
                             first, last);
    }
    return 0;
}

int ohk_fds_restrict_inheritance(const int *keep_fds, size_t n_keep_fds,
                                 char *err, size_t err_len) {
    unsigned floor = 3;
    for (;;) {
        int kept = next_kept_fd(keep_fds, n_keep_fds, floor);
        unsigned last = kept < 0 ? ~0U : (unsigned)kept - 1;
        if (floor <= last && mark_close_on_exec(floor, last, err, err_len) != 0) {
            return -1;
        }
        if (kept < 0) {
            return 0;
        }
        if (keep_across_exec(kept, err, err_len) != 0) {
            return -1;
        }
        floor = (unsigned)kept + 1;
    }
}
