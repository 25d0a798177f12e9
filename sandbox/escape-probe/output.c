/*
 * escape-probe emit: what an app may print, for the terminal relay tests
 * (Tests/SandboxTests/TerminalRelayTests).
 *
 *   escape-probe emit STDOUT-HEX STDERR-HEX EXIT
 *       writes the bytes STDOUT-HEX spells (two hex digits a byte, "-" for
 *       none) to stdout, then STDERR-HEX to stderr, each with one write(2), and
 *       ends: EXIT is an exit code, or "signal:N" to die of signal N.
 *   escape-probe flood BYTES COUNT-FILE
 *       writes BYTES bytes of 63-character lines to stdout, 4096 at a time, and
 *       after each write stores the total written so far in COUNT-FILE, so a
 *       test can see how far it got while nobody reads the terminal.
 */
#define _GNU_SOURCE

#include "attempts.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes `hex` into a new buffer; its length in *length. NULL for bad hex. */
static unsigned char *decode_hex(const char *hex, size_t *length) {
    size_t digits = strcmp(hex, "-") == 0 ? 0 : strlen(hex);
    if (digits % 2 != 0) return NULL;
    unsigned char *bytes = malloc(digits / 2 + 1);
    if (bytes == NULL) return NULL;
    for (size_t i = 0; i < digits; i += 2) {
        int high = hex_digit(hex[i]), low = hex_digit(hex[i + 1]);
        if (high < 0 || low < 0) {
            free(bytes);
            return NULL;
        }
        bytes[i / 2] = (unsigned char)(high * 16 + low);
    }
    *length = digits / 2;
    return bytes;
}

static int write_all(int fd, const unsigned char *bytes, size_t length) {
    while (length > 0) {
        ssize_t written = write(fd, bytes, length);
        if (written < 0) return -1;
        bytes += written;
        length -= (size_t)written;
    }
    return 0;
}

int emit(const char *out_hex, const char *err_hex, const char *ending) {
    const char *hex[2] = {out_hex, err_hex};
    for (int i = 0; i < 2; i++) {
        size_t length = 0;
        unsigned char *bytes = decode_hex(hex[i], &length);
        if (bytes == NULL) {
            fprintf(stderr, "escape-probe: bad hex %s\n", hex[i]);
            return 2;
        }
        int failed = write_all(i + 1, bytes, length);
        free(bytes);
        if (failed) return 3;
    }
    if (strncmp(ending, "signal:", 7) == 0) {
        int signal_number = atoi(ending + 7);
        signal(signal_number, SIG_DFL);
        raise(signal_number);
        return 4;
    }
    return atoi(ending);
}

int flood(long long total, const char *count_file) {
    unsigned char chunk[4096];
    for (size_t i = 0; i < sizeof chunk; i++) chunk[i] = (i % 64 == 63) ? '\n' : 'x';
    int counter = open(count_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (counter < 0) return 3;
    long long written = 0;
    while (written < total) {
        if (write_all(1, chunk, sizeof chunk) != 0) return 4;
        written += (long long)sizeof chunk;
        char text[32];
        int length = snprintf(text, sizeof text, "%lld\n", written);
        if (pwrite(counter, text, (size_t)length, 0) != length) return 5;
    }
    close(counter);
    return 0;
}

/* For each folder of the colon-separated list: "write DIR: allowed" when a new file
   can be made in it (then removed), else "write DIR: denied (ERRNO)". */
int try_folders(const char *folders) {
    char *list = strdup(folders);
    if (list == NULL) return 3;
    char *saved = NULL;
    for (char *folder = strtok_r(list, ":", &saved); folder != NULL; folder = strtok_r(NULL, ":", &saved)) {
        char path[4096];
        snprintf(path, sizeof path, "%s/escape-probe-%d", folder, (int)getpid());
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        int error = fd < 0 ? errno : 0;
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
        char name[4200];
        snprintf(name, sizeof name, "write %s", folder);
        result_line(name, error);
    }
    free(list);
    return 0;
}
