/* Socket calls whose C macros (CMSG_*) and GNU-only structs (struct ucred) Swift cannot use
 * directly. Mechanism only: every decision about what a credential means is made in Swift. */
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Sends `len` bytes and, when fd >= 0, that descriptor as SCM_RIGHTS ancillary data.
 * Returns bytes sent or -1 with errno set. */
ssize_t ohk_send_with_fd(int sock, const void *buf, size_t len, int fd);

/* As ohk_send_with_fd, but never waits for room in the socket buffer (MSG_DONTWAIT): returns
 * what the socket took now, possibly less than `len`, or -1 with errno EAGAIN when it took
 * nothing. */
ssize_t ohk_send_with_fd_nowait(int sock, const void *buf, size_t len, int fd);

/* Receives up to `len` bytes. Descriptors that arrive as SCM_RIGHTS are stored in fds (at most
 * max_fds; extra ones are closed) with *n_fds set, all with close-on-exec. Returns bytes read,
 * 0 at end of stream, or -1 with errno set. A truncated control message is an error (EMSGSIZE). */
ssize_t ohk_recv_with_fds(int sock, void *buf, size_t len, int *fds, size_t max_fds, size_t *n_fds);

/* SO_PEERCRED of a connected Unix socket. Returns 0 or -1 with errno set. */
int ohk_peer_credentials(int sock, pid_t *pid, uid_t *uid, gid_t *gid);

/* SO_PEERPIDFD (Linux 6.5+): a pidfd for the peer process as it was at connect(). Returns the
 * fd or -1 with errno set (ENOPROTOOPT on older kernels). */
int ohk_peer_pidfd(int sock);

/* 0 while the pidfd's process is alive, -1 with errno ESRCH once it exited (the pidfd polls
 * readable), -1 with poll's errno if it cannot tell. Sends no signal. */
int ohk_pidfd_alive(int pidfd);

/* accept4(SOCK_CLOEXEC), a GNU extension Swift's Glibc module does not export. */
int ohk_accept_cloexec(int listener);

/* prctl(PR_SET_DUMPABLE, 0): the kernel then refuses same-uid ptrace and restricts this
 * process's /proc entries to root. prctl is variadic, so Swift cannot call it directly. */
int ohk_set_not_dumpable(void);

/* prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN) (Linux 6.3+): no mapping of this process or its
 * children may become writable and executable, or executable after being writable — the
 * kernel's form of systemd's MemoryDenyWriteExecute=. Returns 0 or -1 with errno set (EINVAL
 * on older kernels). */
int ohk_deny_write_execute(void);

/* Device and inode of the file `path` leads to (links followed, as stat), from the attributes
 * the kernel already holds (statx with AT_STATX_DONT_SYNC): a FUSE or network file system is not
 * asked for fresh ones, so this does not wait on its server for them. Looking the path's folders
 * up may still ask it: call it only on /proc/PID/exe or on paths a trusted source names.
 * Returns 0, or -1 with errno set. */
int ohk_file_identity(const char *path, uint64_t *device, uint64_t *inode);
