/*
 * ohk_confine_broker_files: no capabilities, and Landlock, for the broker itself. healthd parses
 * untrusted bytes from every app; once this runs, a bug in that code holds no capability and can
 * open, create, rename or truncate files only beneath the folders healthd owns (the store, the
 * sockets' folder), read only the few files it reads (/proc, time zones, the host's model name),
 * and neither execute anything nor connect to an abstract socket or signal a process outside its
 * own domain.
 *
 * Landlock confines the calling thread and the threads it starts afterwards, not the threads
 * that already run (the kernel's LANDLOCK_RESTRICT_SELF_TSYNC is not in ABI 7), so this refuses
 * to run unless the process has exactly one thread: healthd calls it before it starts any.
 */
#include "CSandbox.h"

#include "landlock_ruleset.h"
#include "proc_field.h"
#include "step_error.h"

#include <errno.h>
#include <linux/capability.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char step[] = "broker landlock";

/*
 * Every capability, gone for good: the bounding set (when this process may change it), the ambient
 * set, then permitted, effective and inheritable, checked afterwards. A root-run healthd needs
 * none once its folders exist; its peer inspector, forked before this, keeps them to read other
 * uids' processes for it.
 *
 * Why it matters beside Landlock: a process with root's capabilities opens other processes'
 * /proc/PID/environ, auxv, maps, smaps and pagemap even from inside a Landlock domain (measured on
 * Linux 6.18: each opens as root, and each is refused with EACCES once root holds no capability —
 * as it is for an ordinary user), while /proc/PID/exe and mem stay refused either way. So root's
 * capabilities, not the read-only /proc rule, were what let a confined root healthd read another
 * process's environment. For an ordinary user this drops nothing.
 */
static int drop_capabilities(char *err, size_t err_len) {
    struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capget, &header, data) != 0) {
        return ohk_step_fail(err, err_len, "capabilities", errno, "cannot read this process's capabilities");
    }
    if ((data[0].effective >> CAP_SETPCAP) & 1) {
        /* Up to the kernel's last capability: PR_CAPBSET_DROP says EINVAL past it. */
        for (int cap = 0; cap < 64; cap++) {
            if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0) continue;
            if (errno == EINVAL) break;
            return ohk_step_fail(err, err_len, "capabilities", errno, "cannot drop capability %d from the bounding set", cap);
        }
    }
    /* EINVAL: a kernel without ambient capabilities (before 4.3), which has none to clear. */
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) {
        return ohk_step_fail(err, err_len, "capabilities", errno, "cannot clear the ambient capabilities");
    }
    memset(data, 0, sizeof data);
    if (syscall(SYS_capset, &header, data) != 0) {
        return ohk_step_fail(err, err_len, "capabilities", errno, "cannot drop this process's capabilities");
    }
    if (syscall(SYS_capget, &header, data) != 0) {
        return ohk_step_fail(err, err_len, "capabilities", errno, "cannot read this process's capabilities");
    }
    for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
        if (data[i].effective | data[i].permitted | data[i].inheritable) {
            return ohk_step_fail(err, err_len, "capabilities", 0, "capabilities remain after dropping them");
        }
    }
    return 0;
}

/* The "Threads:" field of /proc/self/status, or -1. */
static long thread_count(void) {
    char text[8192];
    if (ohk_proc_read("/proc/self/status", text, sizeof text) < 0) return -1;
    return ohk_proc_field_in(text, "Threads");
}

int ohk_confine_broker_files(const char *const *read_paths, size_t n_read,
                             const char *const *read_write_paths, size_t n_read_write,
                             struct ohk_confinement_report *report, char *err, size_t err_len) {
    struct ohk_confinement_report ignored;
    if (report == NULL) report = &ignored;
    *report = (struct ohk_confinement_report){ 0 };
    long threads = thread_count();
    if (threads != 1) {
        return ohk_step_fail(err, err_len, step, 0,
                             "the process has %ld threads; Landlock would confine only this one",
                             threads);
    }
    const struct ohk_confinement confinement = {
        .read_paths = read_paths,
        .n_read = n_read,
        .read_write_paths = read_write_paths,
        .n_read_write = n_read_write,
        .landlock_min_abi = 0, /* best effort: a kernel without Landlock still runs healthd */
        .allow_inet = 0,
    };
    if (drop_capabilities(err, err_len) != 0) return -1;
    report->applied_steps |= OHK_STEP_CAPABILITIES;
    struct ohk_landlock_ruleset ruleset;
    if (ohk_landlock_build(&confinement, &ruleset, err, err_len) != 0) return -1;
    report->landlock_abi = ruleset.abi;
    if (ruleset.fd < 0) return 0; /* no Landlock in this kernel: only the capabilities step */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        ohk_landlock_release(&ruleset);
        return ohk_step_fail(err, err_len, "no_new_privs", errno, "cannot set no_new_privs");
    }
    report->applied_steps |= OHK_STEP_NO_NEW_PRIVS;
    int rc = ohk_landlock_enforce(&ruleset, err, err_len);
    ohk_landlock_release(&ruleset);
    if (rc != 0) return -1;
    report->applied_steps |= OHK_STEP_LANDLOCK;
    report->landlock_handled_fs = ruleset.handled_fs;
    report->landlock_handled_net = ruleset.handled_net;
    report->landlock_scoped = ruleset.scoped;
    return 0;
}
