/*
 * ohk_confine: check and prepare everything first, then apply the steps in a
 * fixed order, each checked. The order matters:
 *
 *   1. rlimits       RLIMIT_CORE 0 (soft and hard), so a crash of the app
 *                    cannot write its memory, health data included, to a
 *                    core file or a core handler outside the sandbox. Kept
 *                    across execve.
 *   2. fds           only the kept descriptors reach the app.
 *   3. no_new_privs  no setuid or file-capability gain on exec; the kernel
 *                    requires it before Landlock and seccomp without
 *                    CAP_SYS_ADMIN.
 *   4. not dumpable  same-uid processes cannot ptrace or read /proc/PID/mem of
 *                    the launcher while it holds the broker socket. execve
 *                    makes the app dumpable again; seccomp and Landlock
 *                    refuse ptrace from inside the sandbox.
 *   5. Landlock      the filesystem (and TCP, abstract sockets, signals).
 *   6. seccomp       last, so the steps above run unfiltered.
 */
#include "CSandbox.h"

#include "fd_inheritance.h"
#include "landlock_ruleset.h"
#include "seccomp_filter.h"
#include "step_error.h"

#include <errno.h>
#include <sys/prctl.h>
#include <sys/resource.h>

struct prepared_confinement {
    struct ohk_landlock_ruleset landlock;
    struct ohk_seccomp_filter seccomp;
};

static int check_lists(const struct ohk_confinement *c, char *err, size_t err_len) {
    if ((c->n_keep_fds > 0 && c->keep_fds == NULL) ||
        (c->n_read_exec > 0 && c->read_exec_paths == NULL) ||
        (c->n_read_write > 0 && c->read_write_paths == NULL)) {
        return ohk_step_fail(err, err_len, "request", EINVAL, "a list has a count but no array");
    }
    return 0;
}

/* Everything that can fail for a reason the caller can fix happens here,
   before the process changes. */
static int prepare(const struct ohk_confinement *c, struct prepared_confinement *p,
                   char *err, size_t err_len) {
    if (check_lists(c, err, err_len) != 0 ||
        ohk_fds_check(c->keep_fds, c->n_keep_fds, err, err_len) != 0 ||
        ohk_landlock_build(c, &p->landlock, err, err_len) != 0) {
        return -1;
    }
    if (ohk_seccomp_build(&p->seccomp, c->allow_inet, err, err_len) != 0) {
        ohk_landlock_release(&p->landlock);
        return -1;
    }
    return 0;
}

static int limit_core_dumps(char *err, size_t err_len) {
    struct rlimit none = { .rlim_cur = 0, .rlim_max = 0 };
    if (setrlimit(RLIMIT_CORE, &none) != 0) {
        return ohk_step_fail(err, err_len, "rlimits", errno, "cannot set RLIMIT_CORE to 0");
    }
    return 0;
}

static int set_no_new_privs(char *err, size_t err_len) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        return ohk_step_fail(err, err_len, "no_new_privs", errno,
                             "cannot set PR_SET_NO_NEW_PRIVS");
    }
    return 0;
}

static int set_not_dumpable(char *err, size_t err_len) {
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
        return ohk_step_fail(err, err_len, "dumpable", errno, "cannot set PR_SET_DUMPABLE 0");
    }
    return 0;
}

/* Applies the steps in order, recording each one as soon as it took effect,
   so a failure report says exactly how far confinement got. */
static int apply(const struct ohk_confinement *c, struct prepared_confinement *p,
                 struct ohk_confinement_report *report, char *err, size_t err_len) {
    if (limit_core_dumps(err, err_len) != 0) return -1;
    report->applied_steps |= OHK_STEP_RLIMITS;

    if (ohk_fds_restrict_inheritance(c->keep_fds, c->n_keep_fds, err, err_len) != 0) return -1;
    report->applied_steps |= OHK_STEP_FDS;

    if (set_no_new_privs(err, err_len) != 0) return -1;
    report->applied_steps |= OHK_STEP_NO_NEW_PRIVS;

    if (set_not_dumpable(err, err_len) != 0) return -1;
    report->applied_steps |= OHK_STEP_NOT_DUMPABLE;

    if (p->landlock.fd >= 0) {
        if (ohk_landlock_enforce(&p->landlock, err, err_len) != 0) return -1;
        report->applied_steps |= OHK_STEP_LANDLOCK;
        report->landlock_handled_fs = p->landlock.handled_fs;
        report->landlock_handled_net = p->landlock.handled_net;
        report->landlock_scoped = p->landlock.scoped;
    }

    if (ohk_seccomp_load(&p->seccomp, err, err_len) != 0) return -1;
    report->applied_steps |= OHK_STEP_SECCOMP;
    return 0;
}

int ohk_confine(const struct ohk_confinement *confinement,
                struct ohk_confinement_report *report,
                char *err, size_t err_len) {
    struct ohk_confinement_report local_report;
    if (report == NULL) {
        report = &local_report;
    }
    *report = (struct ohk_confinement_report){ 0 };
    if (err != NULL && err_len > 0) {
        err[0] = '\0';
    }
    if (confinement == NULL) {
        return ohk_step_fail(err, err_len, "request", EINVAL, "no confinement given");
    }

    struct prepared_confinement prepared;
    if (prepare(confinement, &prepared, err, err_len) != 0) {
        return -1;
    }
    report->landlock_abi = prepared.landlock.abi;

    int rc = apply(confinement, &prepared, report, err, err_len);
    ohk_landlock_release(&prepared.landlock);
    ohk_seccomp_release(&prepared.seccomp);
    return rc;
}
