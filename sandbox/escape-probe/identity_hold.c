/*
 * escape-probe hold DATA FOREIGN: what an app launched by root can write as
 * its own uid — a file in its data folder (given to it) and one in FOREIGN, a
 * root-owned folder it was also given writable by bind — then "holding" and a
 * wait until standard input closes (at most 30 s), so the test can read this
 * process's real uid from outside, in /proc/PID/status.
 */
#define _GNU_SOURCE

#include "attempts.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <unistd.h>

static int create_in(const char *folder, const char *name) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return errno;
    close(fd);
    return 0;
}

int hold(const char *data, const char *foreign) {
    report_identity();
    result_line("write_data", create_in(data, "written-by-app"));
    result_line("write_root_owned", create_in(foreign, "written-by-app"));
    printf("holding\n");
    fflush(stdout);
    struct pollfd input = { .fd = 0, .events = POLLIN };
    char byte;
    while (poll(&input, 1, 30000) > 0 && read(0, &byte, 1) > 0) {}
    return 0;
}
