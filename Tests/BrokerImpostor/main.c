/*
 * broker-impostor: poses as healthd for BrokerImpostorTests. Listens on each PATH given, as
 * whoever runs it (the tests run it as another user), and reports what every client sent:
 * one "bytes PATH COUNT" line per accepted connection, counted until the client closes or
 * stays silent for one second. It never answers. Prints "ready" once every socket listens;
 * runs until killed.
 *
 *   broker-impostor PATH...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

enum { most = 4 };

static int listen_on(const char *path) {
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    if (strlen(path) >= sizeof address.sun_path) return -1;
    strcpy(address.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    unlink(path);
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || chmod(path, 0666) != 0 || listen(fd, 16) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Bytes the client sends before it closes or is silent for a second. */
static long drain(int fd) {
    long total = 0;
    char buffer[4096];
    for (;;) {
        struct pollfd readable = { .fd = fd, .events = POLLIN };
        int ready = poll(&readable, 1, 1000);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return total;
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return total;
        total += n;
    }
}

int main(int argc, char **argv) {
    if (argc < 2 || argc - 1 > most) {
        fprintf(stderr, "usage: broker-impostor PATH... (at most %d)\n", most);
        return 2;
    }
    struct pollfd listeners[most];
    int count = argc - 1;
    for (int i = 0; i < count; i++) {
        listeners[i] = (struct pollfd){ .fd = listen_on(argv[i + 1]), .events = POLLIN };
        if (listeners[i].fd < 0) {
            fprintf(stderr, "cannot listen on %s: %s\n", argv[i + 1], strerror(errno));
            return 1;
        }
    }
    printf("ready\n");
    fflush(stdout);
    for (;;) {
        if (poll(listeners, (nfds_t)count, -1) < 0) {
            if (errno == EINTR) continue;
            return 1;
        }
        for (int i = 0; i < count; i++) {
            if (!(listeners[i].revents & POLLIN)) continue;
            int client = accept4(listeners[i].fd, NULL, NULL, SOCK_CLOEXEC);
            if (client < 0) continue;
            printf("bytes %s %ld\n", argv[i + 1], drain(client));
            fflush(stdout);
            close(client);
        }
    }
}
