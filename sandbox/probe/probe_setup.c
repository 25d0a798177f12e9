#define _GNU_SOURCE

#include "probe_setup.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

volatile int probe_sleeper_marker = 0x0bad5eed;

static void die(const char *what) {
    fprintf(stderr, "sandbox-probe: %s: %s\n", what, strerror(errno));
    exit(2);
}

static void usage(void) {
    fprintf(stderr,
            "usage: sandbox-probe [--no-confine] [--confinements N] [--min-landlock-abi N]\n"
            "         [--read-exec PATH]... [--read-write PATH]...\n"
            "         --secret-file F --readable-file F --outside-dir D\n"
            "         --read-only-dir D --writable-dir D --outside-program P\n"
            "       (internal) sandbox-probe --after-exec --kept A,B --stray C --secret-file F\n");
    exit(2);
}

static void add_path(const char **list, size_t *count, const char *path) {
    if (*count == PROBE_MAX_PATHS) {
        usage();
    }
    list[(*count)++] = path;
}

void probe_parse_options(int argc, char **argv, struct probe_options *o) {
    *o = (struct probe_options){ .confine = 1, .confinements = 1, .stray_fd = -1, .kept_fds = { -1, -1 } };
    static const struct option long_options[] = {
        { "no-confine", no_argument, NULL, 'n' },
        { "confinements", required_argument, NULL, 'c' },
        { "min-landlock-abi", required_argument, NULL, 'm' },
        { "read-exec", required_argument, NULL, 'x' },
        { "read-write", required_argument, NULL, 'w' },
        { "secret-file", required_argument, NULL, 's' },
        { "readable-file", required_argument, NULL, 'r' },
        { "outside-dir", required_argument, NULL, 'o' },
        { "read-only-dir", required_argument, NULL, 'R' },
        { "writable-dir", required_argument, NULL, 'W' },
        { "outside-program", required_argument, NULL, 'p' },
        { "after-exec", no_argument, NULL, 'a' },
        { "kept", required_argument, NULL, 'k' },
        { "stray", required_argument, NULL, 't' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
        switch (c) {
        case 'n': o->confine = 0; break;
        case 'c': o->confinements = atoi(optarg); break;
        case 'm': o->min_landlock_abi = atoi(optarg); break;
        case 'x': add_path(o->read_exec, &o->n_read_exec, optarg); break;
        case 'w': add_path(o->read_write, &o->n_read_write, optarg); break;
        case 's': o->secret_file = optarg; break;
        case 'r': o->readable_file = optarg; break;
        case 'o': o->outside_dir = optarg; break;
        case 'R': o->read_only_dir = optarg; break;
        case 'W': o->writable_dir = optarg; break;
        case 'p': o->outside_program = optarg; break;
        case 'a': o->after_exec = 1; break;
        case 'k':
            if (sscanf(optarg, "%d,%d", &o->kept_fds[0], &o->kept_fds[1]) != 2) usage();
            break;
        case 't': o->stray_fd = atoi(optarg); break;
        default: usage();
        }
    }
    if (optind != argc || o->secret_file == NULL || o->confinements < 1) {
        usage();
    }
    if (!o->after_exec && (o->readable_file == NULL || o->outside_dir == NULL ||
                           o->read_only_dir == NULL || o->writable_dir == NULL ||
                           o->outside_program == NULL)) {
        usage();
    }
}

/* Blocks until the probe closes the other end of the pipe (at its exec or
   exit), so it never outlives the test. */
static void run_sleeper(int release_fd) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    char byte;
    while (read(release_fd, &byte, 1) < 0 && errno == EINTR) {
    }
    _exit(0);
}

static void make_sleeper(struct probe_fixtures *f) {
    int release[2];
    if (pipe2(release, O_CLOEXEC) != 0) die("pipe for the sleeper");
    pid_t pid = fork();
    if (pid < 0) die("fork the sleeper");
    if (pid == 0) {
        close(release[1]);
        run_sleeper(release[0]);
    }
    close(release[0]);
    f->sleeper = pid;
    f->sleeper_release_fd = release[1];
}

static int listen_unix(const struct sockaddr_un *address, socklen_t length) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) die("AF_UNIX socket");
    if (bind(fd, (const struct sockaddr *)address, length) != 0) die("bind a listener");
    if (listen(fd, 4) != 0) die("listen");
    return fd;
}

static void make_listeners(const struct probe_options *o, struct probe_fixtures *f) {
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    snprintf(f->abstract_name, sizeof f->abstract_name, "ohk-sandbox-probe-%d", (int)getpid());
    /* Abstract names start with a NUL byte and are not NUL-terminated. */
    memcpy(address.sun_path + 1, f->abstract_name, strlen(f->abstract_name));
    socklen_t length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
                                   strlen(f->abstract_name));
    f->abstract_listener = listen_unix(&address, length);

    int n = snprintf(f->pathname_socket, sizeof f->pathname_socket, "%s/probe.sock",
                     o->outside_dir);
    if (n < 0 || (size_t)n >= sizeof f->pathname_socket) {
        errno = ENAMETOOLONG;
        die("pathname socket path");
    }
    unlink(f->pathname_socket);
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    strcpy(address.sun_path, f->pathname_socket);
    f->pathname_listener = listen_unix(&address, sizeof address);
}

void probe_make_fixtures(const struct probe_options *o, struct probe_fixtures *f) {
    *f = (struct probe_fixtures){ 0 };
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, f->kept_pair) != 0) die("kept socketpair");
    int stray_pipe[2];
    if (pipe(stray_pipe) != 0) die("stray pipe");
    close(stray_pipe[1]);
    f->stray_fd = stray_pipe[0];
    make_sleeper(f);
    make_listeners(o, f);
}
