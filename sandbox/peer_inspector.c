/*
 * The peer inspector: a small process that reads, for healthd, what /proc says about the process
 * on the other end of a connection (its executable, and whether it runs confined).
 *
 * Why a process of its own: once healthd confines itself with Landlock, the kernel treats every
 * process outside healthd's Landlock domain as one healthd may not ptrace, and /proc/PID/exe is
 * guarded by that same check (PTRACE_MODE_READ): a confined healthd cannot see which program a
 * peer runs. The inspector is forked before healthd confines itself (and before any key is
 * read), so it stays outside the domain. It keeps no descriptor but its socket, runs under a
 * seccomp allow-list (receive, read-only open, read, readlink, stat, poll, send, exit) and answers
 * one fixed-size question: "what is the process behind this pidfd?". It never learns anything about
 * the store, and a confined healthd gains from it only what a same-uid process could read anyway.
 */
#define _GNU_SOURCE

#include "CSandbox.h"

#include "proc_field.h"
#include "socket_shim.h"
#include "step_error.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

static const char step[] = "peer inspector";

struct inspector_request {
    uint64_t question; /* echoed in the answer */
    int32_t pid; /* SO_PEERCRED's, used only when no pidfd is passed (kernels before 6.5) */
};

/* One lock for the whole question and answer: connection threads ask at the same time. */
static pthread_mutex_t asking = PTHREAD_MUTEX_INITIALIZER;
/* The last question's number, under `asking`. */
static uint64_t last_question = 0;

/* The pid a pidfd refers to, from /proc/self/fdinfo ("Pid:\t123"), or -1. */
static int32_t pid_of_pidfd(int pidfd) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fdinfo/%d", pidfd);
    char text[1024];
    if (ohk_proc_read(path, text, sizeof text) < 0) return -1;
    long pid = ohk_proc_field_in(text, "Pid");
    return pid > 0 && pid <= INT32_MAX ? (int32_t)pid : -1;
}

/* 1 when the "Seccomp:" or "NoNewPrivs:" field of /proc/PID/status is set, 0 when both are 0,
   -1 when the file cannot be read or lacks either field. The file is a few KiB; 64 KiB at most. */
static int32_t confinement_of(int32_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    static char text[65536];
    if (ohk_proc_read(path, text, sizeof text) < 0) return -1;
    long seccomp = ohk_proc_field_in(text, "Seccomp");
    long nnp = ohk_proc_field_in(text, "NoNewPrivs");
    if (seccomp < 0 || nnp < 0) return -1;
    return seccomp != 0 || nnp != 0;
}

/* Answers one question. A pidfd, when passed, decides the pid. */
static void answer(int32_t asked_pid, int pidfd, struct ohk_peer_facts *facts) {
    memset(facts, 0, sizeof *facts);
    facts->confined = -1;
    int32_t pid = pidfd >= 0 ? pid_of_pidfd(pidfd) : asked_pid;
    facts->pid = pid;
    if (pid <= 0) return;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/exe", pid);
    ssize_t n = readlink(path, facts->executable, sizeof facts->executable - 1);
    facts->executable[n > 0 ? n : 0] = '\0';
    /* The file itself, by device and inode: the path above is the one in the peer's mount
       namespace, where an ordinary user may have bound a program of their own over an installed
       app's path (unshare -Urm); healthd compares this with what the path names in its view. */
    /* From the attributes the kernel holds (AT_STATX_DONT_SYNC): a program run from a FUSE mount
       whose server never answers would otherwise hold this call, and with it every question
       healthd asks after it (the "asking" lock): no new connection could be identified. */
    struct statx file;
    if (n > 0 && statx(AT_FDCWD, path, AT_STATX_DONT_SYNC, STATX_INO, &file) == 0) {
        facts->executable_device = (uint64_t)makedev(file.stx_dev_major, file.stx_dev_minor);
        facts->executable_inode = (uint64_t)file.stx_ino;
    }
    facts->confined = confinement_of(pid);
    /* Read while the pidfd pinned the process: if it exited meanwhile, its pid may name another
       program by now, and healthd must not take these facts for the peer's. */
    if (pidfd >= 0) {
        struct pollfd exited = { .fd = pidfd, .events = POLLIN };
        if (poll(&exited, 1, 0) != 0) facts->exited = 1;
    }
}

static void serve(int sock) {
    for (;;) {
        struct inspector_request request;
        union {
            char buffer[CMSG_SPACE(sizeof(int))];
            struct cmsghdr align;
        } control;
        struct iovec io = { .iov_base = &request, .iov_len = sizeof request };
        struct msghdr message = {
            .msg_iov = &io, .msg_iovlen = 1,
            .msg_control = control.buffer, .msg_controllen = sizeof control.buffer,
        };
        ssize_t n = recvmsg(sock, &message, MSG_CMSG_CLOEXEC);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) _exit(0); /* healthd closed its end or is gone */
        int pidfd = -1;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        if (header != NULL && header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS &&
            header->cmsg_len == CMSG_LEN(sizeof(int))) {
            memcpy(&pidfd, CMSG_DATA(header), sizeof pidfd);
        }
        static struct ohk_peer_facts facts;
        if (n == sizeof request && (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) == 0) {
            answer(request.pid, pidfd, &facts);
            facts.question = request.question;
        } else {
            memset(&facts, 0, sizeof facts);
            facts.confined = -1;
        }
        if (pidfd >= 0) close(pidfd);
        while (send(sock, &facts, sizeof facts, MSG_NOSIGNAL) < 0 && errno == EINTR) {}
    }
}

/* Only what serve() calls. Anything else kills the inspector, and healthd then identifies
   nobody (every answer is "unknown"), which refuses connections rather than admit them. */
static int allow_only_serving(void) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (ctx == NULL) return -1;
    const int calls[] = {
        SCMP_SYS(recvmsg), SCMP_SYS(sendto), SCMP_SYS(sendmsg), SCMP_SYS(read), SCMP_SYS(readlink),
        SCMP_SYS(readlinkat), SCMP_SYS(close), SCMP_SYS(poll), SCMP_SYS(ppoll), SCMP_SYS(exit),
        SCMP_SYS(exit_group), SCMP_SYS(rt_sigreturn), SCMP_SYS(restart_syscall),
        /* stat() of /proc/PID/exe: glibc uses one of these depending on its version. */
        SCMP_SYS(newfstatat), SCMP_SYS(fstat), SCMP_SYS(statx),
    };
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof calls / sizeof calls[0]; i++) {
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, calls[i], 0);
    }
    /* Files are opened read-only, never created or truncated. */
    const scmp_datum_t refused = O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND;
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1,
                                       SCMP_A2(SCMP_CMP_MASKED_EQ, refused, 0));
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(open), 1,
                                       SCMP_A1(SCMP_CMP_MASKED_EQ, refused, 0));
    if (rc == 0) rc = seccomp_load(ctx);
    /* Not released: freeing could call brk or munmap, which the filter now refuses; the
       inspector keeps it until it exits. */
    return rc;
}

int ohk_peer_inspector_start(char *err, size_t err_len) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
        return ohk_step_fail(err, err_len, step, errno, "cannot create its socket pair");
    }
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) {
        int saved = errno;
        close(pair[0]);
        close(pair[1]);
        return ohk_step_fail(err, err_len, step, saved, "cannot fork it");
    }
    if (child == 0) {
        /* The inspector: its socket as fd 3 and nothing else, gone with healthd. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(1);
        if (dup2(pair[1], 3) != 3) _exit(1);
        for (int fd = 0; fd < 3; fd++) close(fd);
        if (syscall(SYS_close_range, 4, ~0U, 0) != 0) _exit(1);
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_DUMPABLE, 0) != 0) _exit(1);
        if (allow_only_serving() != 0) _exit(1);
        serve(3);
    }
    close(pair[1]);
    /* A wedged inspector must not hold healthd's accepting threads: give up after 2 s. */
    struct timeval limit = { .tv_sec = 2 };
    if (setsockopt(pair[0], SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit) != 0) {
        int saved = errno;
        close(pair[0]);
        return ohk_step_fail(err, err_len, step, saved, "cannot set its answer timeout");
    }
    return pair[0];
}

const char *ohk_peer_facts_executable(const struct ohk_peer_facts *facts) {
    return facts->executable;
}

int ohk_peer_inspect(int inspector, int pidfd, int32_t pid, struct ohk_peer_facts *facts) {
    struct inspector_request request = { .pid = pid };
    pthread_mutex_lock(&asking);
    request.question = ++last_question;
    ssize_t sent = ohk_send_with_fd(inspector, &request, sizeof request, pidfd);
    ssize_t received = -1;
    if (sent == (ssize_t)sizeof request) {
        /* Answers come in question order; one older than ours is a late answer to a question
           whose asker gave up (SO_RCVTIMEO): drop it and read on. The timeout applies per read,
           and at most the questions asked before ours can be pending. */
        for (;;) {
            do { received = recv(inspector, facts, sizeof *facts, 0); } while (received < 0 && errno == EINTR);
            if (received != (ssize_t)sizeof *facts || facts->question >= request.question) break;
        }
    }
    int saved = errno;
    pthread_mutex_unlock(&asking);
    if (received != (ssize_t)sizeof *facts) {
        /* 0 bytes: the inspector is gone; otherwise the send's or the receive's error (EAGAIN:
           no answer within the timeout; the next asker drops it if it comes). */
        errno = received == 0 ? EPIPE : saved;
        return -1;
    }
    if (facts->question != request.question) {
        errno = EPROTO;
        return -1;
    }
    facts->executable[sizeof facts->executable - 1] = '\0';
    return 0;
}
