/* GNU: CLONE_NEW* flags from <sched.h>. */
#define _GNU_SOURCE

#include "seccomp_filter.h"

#include "step_error.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/socket.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080 /* Linux 5.6; unshare() only */
#endif

static const char step[] = "seccomp";

/*
 * Why default-allow: the launcher execs arbitrary apps (any language runtime,
 * any libc), and an allow-list that fits all of them would be long and would
 * break on every new libc release. This filter is instead a deny-list of what
 * turns "an app of this user" into "anything this user can do": reaching other
 * processes, the kernel's rarely-needed attack surface, networks other than
 * Unix sockets, and ways around Landlock. A stricter allow-list later needs,
 * per app runtime, the syscalls its libc and loader use at start-up (execve,
 * mmap, mprotect, openat, brk, arch_prctl, set_tid_address, rseq, ...), a
 * default action of ERRNO(ENOSYS) rather than kill so runtimes can fall back,
 * and a test that runs each supported runtime under it.
 */
struct denied_syscall {
    int number;
    const char *name;
    int errnum;
};

#define DENY(syscall_name, errnum) { SCMP_SYS(syscall_name), #syscall_name, errnum }

static const struct denied_syscall denied_syscalls[] = {
    /* Reading or steering other processes of the same user, such as the
       broker (Landlock also refuses tracing outside its domain). */
    DENY(ptrace, EPERM),
    DENY(process_vm_readv, EPERM),
    DENY(process_vm_writev, EPERM),
    DENY(process_madvise, EPERM),
    DENY(pidfd_getfd, EPERM),
    DENY(kcmp, EPERM),
    /* Kernel attack surface apps do not need, and classic exploit helpers. */
    DENY(bpf, EPERM),
    DENY(perf_event_open, EPERM),
    DENY(userfaultfd, EPERM),
    /* Kernel keyrings are shared by the user's processes and hold their secrets. */
    DENY(keyctl, EPERM),
    DENY(add_key, EPERM),
    DENY(request_key, EPERM),
    /* Mounts and namespace switches change what a path means to Landlock. */
    DENY(mount, EPERM),
    DENY(umount2, EPERM),
    DENY(pivot_root, EPERM),
    DENY(chroot, EPERM),
    DENY(fsopen, EPERM),
    DENY(fsconfig, EPERM),
    DENY(fsmount, EPERM),
    DENY(fspick, EPERM),
    DENY(move_mount, EPERM),
    DENY(open_tree, EPERM),
    DENY(mount_setattr, EPERM),
    DENY(setns, EPERM),
    /* Opens a file from a handle, without the path Landlock checks. */
    DENY(open_by_handle_at, EPERM),
    /* Loading code into the kernel. */
    DENY(kexec_load, EPERM),
    DENY(kexec_file_load, EPERM),
    DENY(init_module, EPERM),
    DENY(finit_module, EPERM),
    DENY(delete_module, EPERM),
    /* io_uring runs opens, reads and connects inside the kernel, where this
       filter never sees them. */
    DENY(io_uring_setup, EPERM),
    DENY(io_uring_enter, EPERM),
    DENY(io_uring_register, EPERM),
    /* clone3 passes its flags in memory seccomp cannot read, so it can not be
       checked for namespace flags like clone below. ENOSYS (not EPERM) makes
       glibc fall back to clone. */
    DENY(clone3, ENOSYS),
    /* Another process's I/O priority (healthd's, in a shared pid namespace)
       slows every app's reads and saves; no app needs to set even its own. */
    DENY(ioprio_set, EPERM),
    /* Executing code the app wrote: Landlock never grants execute where the
       app may write, but a memfd lives on an internal mount Landlock does not
       mediate, and execveat(fd, "", AT_EMPTY_PATH) runs it. Both are refused;
       execve of a path stays, and is checked by Landlock. (Code the app
       generates inside its own process, as a JIT does, is not refused: it runs
       with the same confinement.) */
    DENY(memfd_create, EPERM),
    DENY(execveat, EPERM),
};

/*
 * Calls that are harmless on the caller but reach any process of the same
 * user given its pid: resource limits (RLIMIT_CPU kills, RLIMIT_NOFILE and
 * RLIMIT_FSIZE break the broker), scheduling (SCHED_IDLE starves it), CPU
 * affinity, page migration. The pid namespace already hides every process
 * outside the sandbox; these rules hold without it (healthd's own filter) and
 * for pids inside it. Only "this process" (pid argument 0, which glibc's
 * setrlimit/getrlimit and the sched_* wrappers for self use) is allowed.
 */
struct self_only_syscall {
    int number;
    const char *name;
    unsigned pid_argument;
};

#define SELF_ONLY(syscall_name, argument) { SCMP_SYS(syscall_name), #syscall_name, argument }

static const struct self_only_syscall self_only_syscalls[] = {
    SELF_ONLY(prlimit64, 0),
    SELF_ONLY(sched_setscheduler, 0),
    SELF_ONLY(sched_setparam, 0),
    SELF_ONLY(sched_setattr, 0),
    SELF_ONLY(sched_setaffinity, 0),
    SELF_ONLY(migrate_pages, 0),
    SELF_ONLY(move_pages, 0),
    /* setpriority(which, who, prio): who is argument 1; which is checked below. */
    SELF_ONLY(setpriority, 1),
};

/* New namespaces, user namespaces above all, expose kernel code meant for root. */
static const unsigned long namespace_flags[] = {
    CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
    CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWTIME,
};

/* Terminal ioctls that push input into the terminal the app inherited, to be
   read by the user's shell once the app exits. */
static const unsigned long terminal_injection_ioctls[] = { TIOCSTI, TIOCLINUX };

static int add_rule(scmp_filter_ctx ctx, int errnum, int number, const char *name,
                    unsigned n_conditions, const struct scmp_arg_cmp *conditions,
                    char *err, size_t err_len) {
    int rc = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(errnum), number,
                                    n_conditions, conditions);
    if (rc != 0) {
        return ohk_step_fail(err, err_len, step, -rc, "cannot add the rule for %s", name);
    }
    return 0;
}

static int add_denied_syscalls(scmp_filter_ctx ctx, char *err, size_t err_len) {
    size_t count = sizeof denied_syscalls / sizeof denied_syscalls[0];
    for (size_t i = 0; i < count; i++) {
        const struct denied_syscall *d = &denied_syscalls[i];
        if (add_rule(ctx, d->errnum, d->number, d->name, 0, NULL, err, err_len) != 0) {
            return -1;
        }
    }
    return 0;
}

static int add_self_only_rules(scmp_filter_ctx ctx, char *err, size_t err_len) {
    size_t count = sizeof self_only_syscalls / sizeof self_only_syscalls[0];
    for (size_t i = 0; i < count; i++) {
        const struct self_only_syscall *s = &self_only_syscalls[i];
        struct scmp_arg_cmp other_process = { .arg = s->pid_argument, .op = SCMP_CMP_NE, .datum_a = 0 };
        if (add_rule(ctx, EPERM, s->number, s->name, 1, &other_process, err, err_len) != 0) {
            return -1;
        }
    }
    /* setpriority's `which` other than PRIO_PROCESS (0) names a process group
       or a whole user, whose other processes who = 0 would reach too. */
    struct scmp_arg_cmp not_process = SCMP_A0(SCMP_CMP_NE, 0);
    return add_rule(ctx, EPERM, SCMP_SYS(setpriority), "setpriority", 1, &not_process, err, err_len);
}

/* With the network: every family but AF_UNIX (1), AF_INET (2) and AF_INET6
   (10) is refused — 0, 3..9 one by one and everything above 10 (libseccomp
   cannot test one argument against a set). All comparisons are on 64 bits. */
static int add_inet_socket_rules(scmp_filter_ctx ctx, char *err, size_t err_len) {
    struct scmp_arg_cmp above_inet6 = SCMP_A0(SCMP_CMP_GT, AF_INET6);
    if (add_rule(ctx, EAFNOSUPPORT, SCMP_SYS(socket), "socket", 1, &above_inet6, err, err_len) != 0) {
        return -1;
    }
    for (unsigned long family = 0; family < AF_INET6; family++) {
        if (family == AF_UNIX || family == AF_INET) continue;
        struct scmp_arg_cmp is_family = SCMP_A0(SCMP_CMP_EQ, family);
        if (add_rule(ctx, EAFNOSUPPORT, SCMP_SYS(socket), "socket", 1, &is_family, err, err_len) != 0) {
            return -1;
        }
    }
    return 0;
}

/* Only AF_UNIX: the broker connection and the app's own local IPC (and, for
   an app given the network, AF_INET/AF_INET6 sockets; socketpair stays Unix
   only). The comparison is on all 64 bits, so junk in the upper half is
   refused too. */
static int add_socket_rules(scmp_filter_ctx ctx, int allow_inet, char *err, size_t err_len) {
    struct scmp_arg_cmp not_unix = SCMP_A0(SCMP_CMP_NE, AF_UNIX);
    if (allow_inet) {
        if (add_inet_socket_rules(ctx, err, err_len) != 0) return -1;
    } else if (add_rule(ctx, EAFNOSUPPORT, SCMP_SYS(socket), "socket", 1, &not_unix,
                        err, err_len) != 0) {
        return -1;
    }
    return add_rule(ctx, EAFNOSUPPORT, SCMP_SYS(socketpair), "socketpair", 1, &not_unix,
                    err, err_len);
}

/* One rule per flag: libseccomp can test "these bits are set" but not "any of
   these bits is set", and rules for one syscall are OR-ed. */
static int add_namespace_rules(scmp_filter_ctx ctx, char *err, size_t err_len) {
    size_t count = sizeof namespace_flags / sizeof namespace_flags[0];
    for (size_t i = 0; i < count; i++) {
        unsigned long flag = namespace_flags[i];
        struct scmp_arg_cmp has_flag = SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag);
        /* In clone()'s flags the low byte is the exit signal, not CLONE_NEWTIME. */
        if (flag != CLONE_NEWTIME &&
            add_rule(ctx, EPERM, SCMP_SYS(clone), "clone", 1, &has_flag, err, err_len) != 0) {
            return -1;
        }
        if (add_rule(ctx, EPERM, SCMP_SYS(unshare), "unshare", 1, &has_flag,
                     err, err_len) != 0) {
            return -1;
        }
    }
    return 0;
}

/* Personality flags such as ADDR_NO_RANDOMIZE or READ_IMPLIES_EXEC weaken the
   next exec. Only PER_LINUX may be set; even the 0xffffffff query is refused,
   because libseccomp cannot compare one argument against two values. */
static int add_personality_rule(scmp_filter_ctx ctx, char *err, size_t err_len) {
    struct scmp_arg_cmp not_linux = SCMP_A0(SCMP_CMP_NE, PER_LINUX);
    return add_rule(ctx, EPERM, SCMP_SYS(personality), "personality", 1, &not_linux,
                    err, err_len);
}

/* The ioctl request is 32 bits wide in the kernel; mask off the upper half. */
static int add_terminal_rules(scmp_filter_ctx ctx, char *err, size_t err_len) {
    size_t count = sizeof terminal_injection_ioctls / sizeof terminal_injection_ioctls[0];
    for (size_t i = 0; i < count; i++) {
        struct scmp_arg_cmp is_request =
            SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL, terminal_injection_ioctls[i]);
        if (add_rule(ctx, EPERM, SCMP_SYS(ioctl), "ioctl", 1, &is_request,
                     err, err_len) != 0) {
            return -1;
        }
    }
    return 0;
}

static int set_attribute(scmp_filter_ctx ctx, enum scmp_filter_attr attribute,
                         uint32_t value, const char *name, char *err, size_t err_len) {
    int rc = seccomp_attr_set(ctx, attribute, value);
    if (rc != 0) {
        return ohk_step_fail(err, err_len, step, -rc, "cannot set %s", name);
    }
    return 0;
}

int ohk_seccomp_build(struct ohk_seccomp_filter *filter, int allow_inet, char *err, size_t err_len) {
    filter->context = NULL;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (ctx == NULL) {
        return ohk_step_fail(err, err_len, step, ENOMEM, "cannot create a filter");
    }
    /* A syscall made through another architecture's entry point (int 0x80 on
       x86_64, or x32 numbers) would be matched against the wrong numbers;
       killing the process is the only safe answer. */
    int failed =
        set_attribute(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS,
                      "the foreign-architecture action", err, err_len) != 0 ||
        /* no_new_privs is its own checked step, before Landlock. */
        set_attribute(ctx, SCMP_FLTATR_CTL_NNP, 0, "no_new_privs handling",
                      err, err_len) != 0 ||
        /* Report the kernel's errno from seccomp_load, not a generic ECANCELED. */
        set_attribute(ctx, SCMP_FLTATR_API_SYSRAWRC, 1, "raw error codes",
                      err, err_len) != 0 ||
        add_denied_syscalls(ctx, err, err_len) != 0 ||
        add_self_only_rules(ctx, err, err_len) != 0 ||
        add_socket_rules(ctx, allow_inet, err, err_len) != 0 ||
        add_namespace_rules(ctx, err, err_len) != 0 ||
        add_personality_rule(ctx, err, err_len) != 0 ||
        add_terminal_rules(ctx, err, err_len) != 0;
    if (failed) {
        seccomp_release(ctx);
        return -1;
    }
    filter->context = ctx;
    return 0;
}

int ohk_seccomp_load(struct ohk_seccomp_filter *filter, char *err, size_t err_len) {
    int rc = seccomp_load(filter->context);
    if (rc != 0) {
        return ohk_step_fail(err, err_len, step, -rc, "cannot load the filter");
    }
    return 0;
}

void ohk_seccomp_release(struct ohk_seccomp_filter *filter) {
    if (filter->context != NULL) {
        seccomp_release(filter->context);
        filter->context = NULL;
    }
}
