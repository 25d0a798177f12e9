/*
 * Whether this kernel lets the caller create a user namespace, asked before
 * health-sandbox hands the app to bubblewrap: bwrap's own message on refusal
 * does not say which setting to change, and the launcher must refuse rather
 * than run the app with less confinement.
 */
#define _GNU_SOURCE

#include "CSandbox.h"

#include "fd_inheritance.h"

#include <errno.h>
#include <sched.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* unshare(CLONE_NEWUSER) fails with EINVAL in a multithreaded process (the
   Swift runtime always has threads), so a forked child, which has one thread,
   tries it and reports the errno as its exit status. The child calls nothing
   but unshare and _exit, which is safe after fork in a threaded process. */
int ohk_user_namespace_errno(void) {
    pid_t child = fork();
    if (child < 0) {
        return errno;
    }
    if (child == 0) {
        _exit(unshare(CLONE_NEWUSER) == 0 ? 0 : (errno & 0xff));
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            return errno;
        }
    }
    if (!WIFEXITED(status)) {
        return ECHILD;
    }
    return WEXITSTATUS(status);
}

int ohk_keep_only_fds(const int *keep_fds, size_t n_keep_fds, char *err, size_t err_len) {
    if (ohk_fds_check(keep_fds, n_keep_fds, err, err_len) != 0) {
        return -1;
    }
    return ohk_fds_restrict_inheritance(keep_fds, n_keep_fds, err, err_len);
}
