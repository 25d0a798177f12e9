/*
 * CSandbox: the confinement steps health-sandbox applies to itself right
 * before it execs an untrusted app.
 *
 * Mechanism only. Which paths, which fds and which Landlock ABI are needed is
 * decided by the Swift caller and passed in; nothing here knows about apps,
 * sockets of the broker or the layout of the system.
 *
 * Contract for the caller:
 *   - Call ohk_confine() on the thread that will call execve(), and call
 *     execve() right after it succeeds. Every step is per thread (no_new_privs,
 *     Landlock, seccomp) and survives execve; other threads of the launcher are
 *     left unconfined and disappear at execve.
 *   - On failure (-1) the process may already be partly confined (see
 *     report->applied_steps). It must not exec the app; exit with the message.
 *
 * See sandbox/README.md for the order of steps and what is not a boundary.
 */
#ifndef CSANDBOX_H
#define CSANDBOX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the confined process may keep. Arrays may be NULL when their count is 0. */
struct ohk_confinement {
    /* Descriptors >= 3 that survive into the app (FD_CLOEXEC is cleared on
       them). Every other descriptor >= 3 is marked close-on-exec, so the
       kernel closes it at execve. 0, 1 and 2 are always kept. */
    const int *keep_fds;
    size_t n_keep_fds;

    /* Landlock: read and execute files beneath these paths (a path may also
       name a single file). */
    const char *const *read_exec_paths;
    size_t n_read_exec;

    /* Landlock: read, write, create, remove and rename beneath these paths;
       never execute. */
    const char *const *read_write_paths;
    size_t n_read_write;

    /* 0: use Landlock if the kernel has it, otherwise go on without it (the
       report says so). N >= 1: fail unless the kernel's Landlock ABI is at
       least N (6 is the first that scopes abstract Unix sockets and signals). */
    int landlock_min_abi;

    /* 0: only AF_UNIX sockets (seccomp) and no TCP bind/connect (Landlock
       ABI >= 4). 1: AF_INET and AF_INET6 sockets too, and TCP not handled by
       Landlock — for an app whose manifest asks for the network and whose
       user allowed it; its namespace then shares the host's network. */
    int allow_inet;

    /* Landlock: read files and list folders beneath these paths (a path may also name a single
       file); never write or execute. health-sandbox passes none; healthd its read-only paths. */
    const char *const *read_paths;
    size_t n_read;
};

/* Bits of ohk_confinement_report.applied_steps, in the order they are applied. */
enum ohk_confinement_step {
    OHK_STEP_RLIMITS       = 1 << 0, /* RLIMIT_CORE 0 */
    OHK_STEP_FDS           = 1 << 1, /* keep_fds inherited, all others close-on-exec */
    OHK_STEP_NO_NEW_PRIVS  = 1 << 2, /* PR_SET_NO_NEW_PRIVS 1 */
    OHK_STEP_NOT_DUMPABLE  = 1 << 3, /* PR_SET_DUMPABLE 0 (until execve) */
    OHK_STEP_LANDLOCK      = 1 << 4, /* Landlock ruleset enforced */
    OHK_STEP_SECCOMP       = 1 << 5, /* seccomp filter loaded */
    OHK_STEP_CAPABILITIES  = 1 << 6, /* every capability dropped: bounding, ambient, permitted (healthd) */
};

/* What was actually applied; filled in on success and on failure. */
struct ohk_confinement_report {
    unsigned applied_steps;          /* OR of enum ohk_confinement_step */
    int landlock_abi;                /* kernel's Landlock ABI, 0 if it has none */
    uint64_t landlock_handled_fs;    /* LANDLOCK_ACCESS_FS_* rights restricted */
    uint64_t landlock_handled_net;   /* LANDLOCK_ACCESS_NET_* rights restricted */
    uint64_t landlock_scoped;        /* LANDLOCK_SCOPE_* applied */
};

/* The running kernel's Landlock ABI version, 0 if it has no Landlock. */
int ohk_landlock_abi(void);

/*
 * Confines the calling thread: first checks the whole request and prepares
 * the Landlock ruleset and the seccomp filter without changing the process
 * (a bad path or fd fails here, with applied_steps == 0), then applies, in
 * this fixed order: resource limits, descriptors, no_new_privs, not dumpable,
 * Landlock, seccomp.
 *
 * Returns 0, or -1 with `err` (if not NULL) holding "<step>: <what>: <strerror>".
 * `report` may be NULL.
 */
int ohk_confine(const struct ohk_confinement *confinement,
                struct ohk_confinement_report *report,
                char *err, size_t err_len);

/*
 * The broker's confinement after start-up: no_new_privs and, on every thread of the process
 * (seccomp TSYNC), the app filter's deny-list plus execve/execveat. No Landlock: the broker
 * must keep reading and writing its store directory and sockets. Returns 0, or -1 with `err`.
 */
int ohk_confine_broker(char *err, size_t err_len);

/*
 * The broker's file walls (sandbox/broker_files.c), before it starts any thread: every capability
 * dropped for good (a root-run healthd keeps none; its peer inspector, forked before, keeps them to
 * read other uids' processes), no_new_privs and a Landlock ruleset that handles every right of the kernel's ABI and allows reading beneath
 * read_paths, reading and writing (never executing) beneath read_write_paths, no TCP, and (ABI 6+)
 * no abstract Unix socket or signal outside the domain. Refuses if the process has more than one
 * thread. Without Landlock in the kernel it returns 0 with report->landlock_abi 0 and only the
 * capabilities step applied. Returns 0, or -1 with `err`.
 */
int ohk_confine_broker_files(const char *const *read_paths, size_t n_read,
                             const char *const *read_write_paths, size_t n_read_write,
                             struct ohk_confinement_report *report, char *err, size_t err_len);

/* What the peer inspector (sandbox/peer_inspector.c) answers about one process. */
struct ohk_peer_facts {
    uint64_t question;      /* the number of the question this answers (ohk_peer_inspect's own) */
    int32_t pid;            /* the process the answer is about (from the pidfd); <= 0: none */
    int32_t exited;         /* 1: it had exited when read, so its pid may name another process */
    uint64_t executable_device; /* st_dev and st_ino of the file /proc/PID/exe leads to: the file */
    uint64_t executable_inode;  /* the process runs, whatever path names it; both 0 when unreadable */
    int32_t confined;       /* /proc/PID/status: 1 Seccomp or NoNewPrivs set, 0 neither, -1 unknown */
    char executable[4097];  /* /proc/PID/exe, "" when unreadable */
};

/*
 * Forks the peer inspector: a process that keeps only its end of a socket pair, runs under a
 * seccomp allow-list and reads /proc/PID/exe and /proc/PID/status for healthd, which cannot once
 * Landlock confines it. Call with one thread and before any secret is read. Returns healthd's end
 * of the pair, or -1 with `err`.
 */
int ohk_peer_inspector_start(char *err, size_t err_len);

/*
 * Asks the inspector about the process behind pidfd (passed to it; or pid when pidfd is -1).
 * Safe from many threads. Each question is numbered and the inspector echoes the number, so an
 * answer that came too late for its own question (2 s) is read and dropped by the next asker,
 * never taken for its answer. Returns 0, or -1 with errno (EAGAIN: no answer in time; EPIPE:
 * the inspector is gone).
 */
int ohk_peer_inspect(int inspector, int pidfd, int32_t pid, struct ohk_peer_facts *facts);

/* facts->executable (Swift does not import a char array this long). */
const char *ohk_peer_facts_executable(const struct ohk_peer_facts *facts);

/*
 * 0 if this process may create a user namespace (bubblewrap needs one), else
 * the errno unshare(CLONE_NEWUSER) gave in a child process (EPERM, ENOSPC when
 * user.max_user_namespaces is 0, EINVAL/ENOSYS without user namespaces).
 */
int ohk_user_namespace_errno(void);

/*
 * Only keep_fds (and 0, 1, 2) survive the next execve: FD_CLOEXEC is cleared
 * on them and set on every other descriptor. What health-sandbox does before
 * it execs bubblewrap, which passes inherited descriptors on to the app.
 * Returns 0, or -1 with `err`.
 */
int ohk_keep_only_fds(const int *keep_fds, size_t n_keep_fds, char *err, size_t err_len);

/*
 * Becomes uid/gid (real, effective and saved) with no supplementary groups,
 * on every thread (glibc's set*id broadcast), for an app launched by root:
 * setgroups(0), setresgid, setresuid in that order, then verifies all three
 * ids of each, that no group is left, and that setuid(0) now fails. Refuses
 * uid or gid 0. Returns 0, or -1 with `err` naming the step.
 */
int ohk_switch_ids(uint32_t uid, uint32_t gid, char *err, size_t err_len);

/*
 * Gives the directory `path` and everything beneath it to uid/gid (root, for
 * an app's data folder). Never follows a link: every level is opened with
 * O_NOFOLLOW relative to its verified parent, links are changed themselves
 * (AT_SYMLINK_NOFOLLOW), a non-directory with more than one hard link is
 * refused (it could be someone else's file linked in), and so is nesting
 * deeper than 64 levels. Returns 0, or -1 with `err`.
 */
int ohk_hand_over_tree(const char *path, uint32_t uid, uint32_t gid, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* CSANDBOX_H */
