/*
 * socket-thief: tries to take another process's open descriptor (an app's broker connection)
 * in every way Linux offers a same-user process, and prints one "name: ok|errno-name" line per
 * way. IdentityAttackTests runs it confined under health-sandbox (every way must fail) and
 * unconfined (the control: shows which ways work without the sandbox).
 *
 *   socket-thief PID FD
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void report(const char *name, int error) {
    printf("%s: %s\n", name, error == 0 ? "ok" : strerrorname_np(error));
}

/* A taken descriptor only counts if it really is the socket. */
static int is_socket(int fd) {
    int type = 0;
    socklen_t size = sizeof type;
    return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &size) == 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: socket-thief PID FD\n");
        return 2;
    }
    pid_t victim = (pid_t)atoi(argv[1]);
    int target = atoi(argv[2]);

    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", victim, target);
    int opened = open(path, O_RDWR | O_CLOEXEC);
    report("proc_fd_open", opened >= 0 ? (is_socket(opened) ? 0 : ENOTSOCK) : errno);

    int pidfd = (int)syscall(SYS_pidfd_open, victim, 0);
    if (pidfd < 0) {
        report("pidfd_open", errno);
        report("pidfd_getfd", errno);
    } else {
        report("pidfd_open", 0);
        int taken = (int)syscall(SYS_pidfd_getfd, pidfd, target, 0);
        report("pidfd_getfd", taken >= 0 ? (is_socket(taken) ? 0 : ENOTSOCK) : errno);
    }

    /* With a tracer attached the victim's descriptors are one injected syscall away. */
    long attached = ptrace(PTRACE_SEIZE, victim, NULL, NULL);
    report("ptrace_seize", attached == 0 ? 0 : errno);
    if (attached == 0) ptrace(PTRACE_DETACH, victim, NULL, NULL);
    return 0;
}
