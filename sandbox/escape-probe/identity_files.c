/* Who the app is inside the sandbox, and the broker's files it reaches for. */
#define _GNU_SOURCE

#include "attempts.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

void result_line(const char *name, int errnum) {
    if (errnum == 0) {
        printf("%s: allowed\n", name);
    } else {
        printf("%s: denied (%s)\n", name, strerrorname_np(errnum) ? strerrorname_np(errnum) : "?");
    }
}

static int rc_errno(int rc) { return rc < 0 ? errno : 0; }

/* A terminal on a standard descriptor open for reading lets the app read what the user
   types next, even in the background once it is in a session of its own. */
static void report_terminal(void) {
    char readable[16] = "", writable[16] = "";
    for (int fd = 0; fd <= 2; fd++) {
        if (!isatty(fd)) continue;
        int mode = fcntl(fd, F_GETFL) & O_ACCMODE;
        char number[4];
        snprintf(number, sizeof number, "%d", fd);
        if (mode != O_WRONLY) snprintf(readable + strlen(readable), sizeof readable - strlen(readable), "%s%s", readable[0] ? " " : "", number);
        if (mode != O_RDONLY) snprintf(writable + strlen(writable), sizeof writable - strlen(writable), "%s%s", writable[0] ? " " : "", number);
    }
    printf("terminal_readable: %s\nterminal_writable: %s\n", readable[0] ? readable : "none", writable[0] ? writable : "none");
}

/* The capability sets, no_new_privs and seccomp mode, as the kernel reports them. */
void report_identity(void) {
    printf("uid: %d\ngid: %d\n", (int)getuid(), (int)getgid());
    report_terminal();
    FILE *status = fopen("/proc/self/status", "r");
    if (status == NULL) {
        result_line("proc_self_status", errno);
        return;
    }
    static const char *const fields[] = { "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp" };
    char line[256];
    while (fgets(line, sizeof line, status) != NULL) {
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
            size_t n = strlen(fields[i]);
            if (strncmp(line, fields[i], n) == 0 && line[n] == ':') {
                char *value = line + n + 1;
                while (*value == ' ' || *value == '\t') value++;
                value[strcspn(value, "\n")] = '\0';
                printf("%s: %s\n", fields[i], value);
            }
        }
    }
    fclose(status);
}

static void try_open(const char *name, const char *path, int flags) {
    int fd = open(path, flags | O_CLOEXEC);
    result_line(name, rc_errno(fd));
    if (fd >= 0) close(fd);
}

/* Mode, times, xattrs and owner of files outside: none of them may change.
   Each attempt re-sets what is already there, so the control run changes nothing. */
static void try_metadata(const char *prefix, const char *path) {
    char name[64];
    struct stat info;
    mode_t mode = stat(path, &info) == 0 ? (info.st_mode & 07777) : 0600;
    snprintf(name, sizeof name, "chmod_%s", prefix);
    result_line(name, rc_errno(chmod(path, mode)));
    struct timespec keep[2] = { { .tv_nsec = UTIME_OMIT }, { .tv_nsec = UTIME_NOW } };
    snprintf(name, sizeof name, "utimensat_%s", prefix);
    result_line(name, rc_errno(utimensat(AT_FDCWD, path, keep, 0)));
    snprintf(name, sizeof name, "setxattr_%s", prefix);
    result_line(name, rc_errno(setxattr(path, "user.ohk-escape", "1", 1, 0)));
    snprintf(name, sizeof name, "chown_%s", prefix);
    result_line(name, rc_errno(chown(path, (uid_t)-1, (gid_t)-1)));
}

/* The app's /tmp is its own: the host's files are not in it, and it can write there. */
static void attempt_private_tmp(const char *marker) {
    struct stat info;
    printf("tmp_marker_visible: %s\n", stat(marker, &info) == 0 ? "yes" : "no");
    char path[64];
    snprintf(path, sizeof path, "/tmp/ohk-escape-write-%d", (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    result_line("tmp_write", rc_errno(fd));
    if (fd >= 0) {
        close(fd);
        unlink(path);
    }
}

void attempt_files(const struct targets *t) {
    if (t->tmp_marker != NULL) attempt_private_tmp(t->tmp_marker);
    try_open("open_store", t->store, O_RDONLY | O_DIRECTORY);
    try_open("open_key", t->key, O_RDONLY);
    char wal[4096];
    snprintf(wal, sizeof wal, "%s/health.sqlite-wal", t->store);
    struct stat info;
    result_line("stat_store_wal", rc_errno(stat(wal, &info)));
    int watcher = inotify_init1(IN_CLOEXEC);
    if (watcher >= 0) {
        result_line("inotify_store", rc_errno(inotify_add_watch(watcher, t->store, IN_MODIFY)));
        close(watcher);
    } else {
        result_line("inotify_store", errno);
    }
    try_metadata("store", t->store);
    try_metadata("key", t->key);
    try_metadata("own_file", t->own_file);
}
