/*
 * ohk_confine_broker: the broker's own confinement after start-up (DESIGN.md §2: "no exec,
 * no network sockets"), so a bug in request handling cannot be turned into a shell or a
 * network connection. It reuses the app filter's deny-list (other processes, kernel attack
 * surface, non-Unix sockets, namespaces, io_uring) and adds exec, on every thread at once.
 *
 * It also takes away every new socket and every connect, Unix ones included: Landlock does not
 * cover connecting to a pathname socket, so a hijacked healthd could otherwise reach the user's
 * session bus or `systemd --user` (StartTransientUnit runs any command, outside every wall), the
 * ssh agent or docker.sock. Once serving, healthd needs neither: its listeners, the service
 * manager's notify socket and the peer inspector's pair all exist before this runs, and it only
 * accepts. A datagram sent with an address (sendto's fifth argument) is refused for the same
 * reason; healthd's own sends name none.
 */
#include "CSandbox.h"

#include "seccomp_filter.h"
#include "step_error.h"

#include <errno.h>
#include <seccomp.h>
#include <sys/prctl.h>

static const char step[] = "broker seccomp";

int ohk_confine_broker(char *err, size_t err_len) {
    struct ohk_seccomp_filter filter;
    if (ohk_seccomp_build(&filter, 0, err, err_len) != 0) return -1;
    scmp_filter_ctx ctx = filter.context;
    /* execveat is already in the app filter's deny-list. */
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(execve), 0);
    /* Unconditional: they take precedence over the app filter's family rule for socket. */
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 0);
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(connect), 0);
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sendto), 1,
                                       SCMP_A4(SCMP_CMP_NE, 0));
    /* Every thread the broker has already started (accept loops, connections, the Swift
       runtime's pool) gets the filter too, not only the calling one. */
    if (rc == 0) rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
    if (rc != 0) {
        ohk_seccomp_release(&filter);
        return ohk_step_fail(err, err_len, step, -rc, "cannot add the broker's rules");
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        ohk_seccomp_release(&filter);
        return ohk_step_fail(err, err_len, "no_new_privs", errno, "cannot set no_new_privs");
    }
    rc = ohk_seccomp_load(&filter, err, err_len);
    ohk_seccomp_release(&filter);
    return rc;
}
