/*
 * escape-probe network PORT NAME: what an app's network is. Without network
 * access (manifest and user both needed) seccomp refuses internet sockets;
 * with it, the app shares the host's network and reaches a TCP listener on
 * loopback, while Landlock's scope (ABI >= 6) still keeps it from the host's
 * abstract Unix sockets, which then share its network namespace.
 */
#define _GNU_SOURCE

#include "attempts.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

static int connect_loopback(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return errno;
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int rc = connect(fd, (struct sockaddr *)&address, sizeof address) == 0 ? 0 : errno;
    close(fd);
    return rc;
}

int attempt_network(int port, const char *outside_abstract) {
    int inet = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    result_line("inet_socket", inet < 0 ? errno : 0);
    if (inet >= 0) close(inet);
    int inet6 = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    result_line("inet6_socket", inet6 < 0 ? errno : 0);
    if (inet6 >= 0) close(inet6);
    result_line("inet_connect_loopback", connect_loopback(port));
    /* Families other than Unix and internet stay refused with the network too. */
    int netlink = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, 0);
    result_line("netlink_socket", netlink < 0 ? errno : 0);
    if (netlink >= 0) close(netlink);
    result_line("abstract_connect_outside", connect_unix(outside_abstract, 1));
    return 0;
}
