/* Fields of small /proc files, for healthd's own checks and its peer inspector. */
#define _GNU_SOURCE

#include "proc_field.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ssize_t ohk_proc_read(const char *path, char *text, size_t size) {
    if (size == 0) return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t filled = 0;
    for (;;) {
        ssize_t n = read(fd, text + filled, size - 1 - filled);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        filled += (size_t)n;
        if (filled == size - 1) break;
    }
    close(fd);
    text[filled] = '\0';
    return filled == 0 ? -1 : (ssize_t)filled;
}

long ohk_proc_field_in(const char *text, const char *name) {
    char needle[64];
    int length = snprintf(needle, sizeof needle, "\n%s:", name);
    if (length <= 0 || (size_t)length >= sizeof needle) return -1;
    const char *field = strstr(text, needle);
    return field == NULL ? -1 : strtol(field + length, NULL, 10);
}
