#include "escape_attempts.h"

#include "probe_output.h"

#include <errno.h>
#include <linux/netlink.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static void try_socket(const char *name, int domain, int type, int protocol) {
    int fd = socket(domain, type | SOCK_CLOEXEC, protocol);
    probe_errno_line(name, fd < 0 ? errno : 0);
    if (fd >= 0) {
        close(fd);
    }
}

static void try_socketpair(const char *name, int domain) {
    int pair[2];
    int rc = socketpair(domain, SOCK_STREAM | SOCK_CLOEXEC, 0, pair);
    probe_errno_line(name, rc < 0 ? errno : 0);
    if (rc == 0) {
        close(pair[0]);
        close(pair[1]);
    }
}

static void try_connect(const char *name, const struct sockaddr_un *address, socklen_t length) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        probe_line(name, "probe error: no AF_UNIX socket");
        return;
    }
    int rc = connect(fd, (const struct sockaddr *)address, length);
    probe_errno_line(name, rc < 0 ? errno : 0);
    close(fd);
}

void attempt_inet_socket(void) {
    try_socket("inet_socket", AF_INET, SOCK_STREAM, 0);
}

void attempt_network_escapes(const struct probe_fixtures *f) {
    try_socket("unix_socket", AF_UNIX, SOCK_STREAM, 0);
    try_socketpair("unix_socketpair", AF_UNIX);
    attempt_inet_socket();
    try_socket("inet6_socket", AF_INET6, SOCK_DGRAM, 0);
    try_socket("netlink_socket", AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
    try_socket("packet_socket", AF_PACKET, SOCK_RAW, 0);
    try_socketpair("inet_socketpair", AF_INET);

    struct sockaddr_un abstract = { .sun_family = AF_UNIX };
    size_t name_length = strlen(f->abstract_name);
    memcpy(abstract.sun_path + 1, f->abstract_name, name_length);
    try_connect("abstract_unix_connect", &abstract,
                (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + name_length));

    struct sockaddr_un pathname = { .sun_family = AF_UNIX };
    strcpy(pathname.sun_path, f->pathname_socket);
    try_connect("pathname_unix_connect_outside", &pathname, sizeof pathname);
}
