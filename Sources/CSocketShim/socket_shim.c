#define _GNU_SOURCE
#include "socket_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

static ssize_t send_with_fd(int sock, const void *buf, size_t len, int fd, int flags) {
    struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(sizeof(int))];
    } control;
    if (fd >= 0) {
        memset(&control, 0, sizeof control);
        msg.msg_control = control.bytes;
        msg.msg_controllen = sizeof control.bytes;
        struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
        cmsg->cmsg_level = SOL_SOCKET;
        cmsg->cmsg_type = SCM_RIGHTS;
        cmsg->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
    }
    ssize_t sent;
    do {
        sent = sendmsg(sock, &msg, MSG_NOSIGNAL | flags);
    } while (sent < 0 && errno == EINTR);
    return sent;
}

ssize_t ohk_send_with_fd(int sock, const void *buf, size_t len, int fd) {
    return send_with_fd(sock, buf, len, fd, 0);
}

ssize_t ohk_send_with_fd_nowait(int sock, const void *buf, size_t len, int fd) {
    return send_with_fd(sock, buf, len, fd, MSG_DONTWAIT);
}

ssize_t ohk_recv_with_fds(int sock, void *buf, size_t len, int *fds, size_t max_fds, size_t *n_fds) {
    struct iovec iov = { .iov_base = buf, .iov_len = len };
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(sizeof(int) * 8)];
    } control;
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
                          .msg_control = control.bytes, .msg_controllen = sizeof control.bytes };
    *n_fds = 0;
    ssize_t got;
    do {
        got = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    } while (got < 0 && errno == EINTR);
    if (got < 0) return -1;
    for (struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
        if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(cmsg) + i * sizeof(int), sizeof(int));
            if (*n_fds < max_fds) fds[(*n_fds)++] = fd;
            else close(fd);
        }
    }
    if (msg.msg_flags & MSG_CTRUNC) {
        /* Descriptors were dropped by the kernel: the peer sent more than we accept. */
        for (size_t i = 0; i < *n_fds; i++) close(fds[i]);
        *n_fds = 0;
        errno = EMSGSIZE;
        return -1;
    }
    return got;
}

int ohk_peer_credentials(int sock, pid_t *pid, uid_t *uid, gid_t *gid) {
    struct ucred cred;
    socklen_t size = sizeof cred;
    if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &size) != 0) return -1;
    *pid = cred.pid;
    *uid = cred.uid;
    *gid = cred.gid;
    return 0;
}

int ohk_peer_pidfd(int sock) {
    int pidfd = -1;
    socklen_t size = sizeof pidfd;
    if (getsockopt(sock, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &size) != 0) return -1;
    return pidfd;
}

int ohk_pidfd_alive(int pidfd) {
    /* A pidfd polls readable once its process has exited. Not pidfd_send_signal(0): healthd's
       Landlock domain (ABI 6+) scopes signals, and would refuse it for every peer. */
    struct pollfd exited = { .fd = pidfd, .events = POLLIN };
    int ready;
    do { ready = poll(&exited, 1, 0); } while (ready < 0 && errno == EINTR);
    if (ready < 0) return -1;
    if (ready > 0) {
        errno = ESRCH;
        return -1;
    }
    return 0;
}

int ohk_accept_cloexec(int listener) {
    return accept4(listener, NULL, NULL, SOCK_CLOEXEC);
}

#include <sys/prctl.h>

int ohk_set_not_dumpable(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

/* Older kernel headers lack these (Linux 6.3). */
#ifndef PR_SET_MDWE
#define PR_SET_MDWE 65
#endif
#ifndef PR_MDWE_REFUSE_EXEC_GAIN
#define PR_MDWE_REFUSE_EXEC_GAIN 1
#endif

int ohk_deny_write_execute(void) {
    return prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0);
}

int ohk_file_identity(const char *path, uint64_t *device, uint64_t *inode) {
    struct statx status;
    if (statx(AT_FDCWD, path, AT_STATX_DONT_SYNC, STATX_INO, &status) != 0) return -1;
    *device = (uint64_t)makedev(status.stx_dev_major, status.stx_dev_minor);
    *inode = (uint64_t)status.stx_ino;
    return 0;
}
