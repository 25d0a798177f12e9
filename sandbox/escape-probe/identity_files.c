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

/* The capability sets, no_new_privs and seccomp mode, as the kernel reports them. */
void report_identity(void) {
    printf("uid: %d\ngid: %d\n", (int)getuid(), (int)getgid());
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

void attempt_files(const struct targets *t) {
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
