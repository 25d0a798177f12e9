// LD_PRELOAD shim for HealthStoreTests' PowerLossTests: a model of what a store directory
// holds after a power cut. Not part of any target; the test compiles it with the system C
// compiler into a temporary directory.
//
// The model: a file's bytes survive only as of its last successful fsync/fdatasync, and a
// name in the directory survives only as of the directory's last fsync. So the shim, after
// every successful sync of a file in $OHK_POWERLOSS_WATCH, copies that file's bytes to
// $OHK_POWERLOSS_SHADOW/inode-<ino>; after every sync of the watched directory itself, it
// writes the directory's names and inodes to $OHK_POWERLOSS_SHADOW/names. The test rebuilds a
// directory from the two (a listed name without synced bytes becomes an empty file).
//
// Each shadow file is written beside its final name and renamed over it, so a reader never
// sees half of one. Errors here never change what the intercepted call returns: a shim that
// fails to record leaves the shadow short, which the test reports as lost data.
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static pthread_mutex_t shadow_lock = PTHREAD_MUTEX_INITIALIZER;

static int write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t n = write(fd, bytes, count);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        bytes += n;
        count -= (size_t)n;
    }
    return 0;
}

// Copies the bytes behind `fd` (reopened read-only through /proc, since SQLite's and the key
// files' descriptors may be write-only) to `target`, through `target`.tmp.
static void copy_file(int fd, const char *target) {
    char proc_path[64], temporary[PATH_MAX + 8], buffer[65536];
    snprintf(proc_path, sizeof proc_path, "/proc/self/fd/%d", fd);
    snprintf(temporary, sizeof temporary, "%s.tmp", target);
    int in = open(proc_path, O_RDONLY | O_CLOEXEC);
    if (in < 0) return;
    int out = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out < 0) { close(in); return; }
    int ok = 1;
    for (;;) {
        ssize_t n = read(in, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) { ok = 0; break; }
        if (n == 0) break;
        if (write_all(out, buffer, (size_t)n) != 0) { ok = 0; break; }
    }
    close(in);
    close(out);
    if (ok) rename(temporary, target); else unlink(temporary);
}

// Writes "name<TAB>inode" for every entry of the watched directory to shadow/names.
static void record_names(const char *directory, const char *shadow) {
    char target[PATH_MAX], temporary[PATH_MAX + 8];
    snprintf(target, sizeof target, "%s/names", shadow);
    snprintf(temporary, sizeof temporary, "%s.tmp", target);
    DIR *listing = opendir(directory);
    if (listing == NULL) return;
    FILE *out = fopen(temporary, "we");
    if (out == NULL) { closedir(listing); return; }
    struct dirent *entry;
    while ((entry = readdir(listing)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        fprintf(out, "%s\t%llu\n", entry->d_name, (unsigned long long)entry->d_ino);
    }
    closedir(listing);
    int ok = fclose(out) == 0;
    if (ok) rename(temporary, target); else unlink(temporary);
}

static void record_sync(int fd) {
    const char *watch = getenv("OHK_POWERLOSS_WATCH");
    const char *shadow = getenv("OHK_POWERLOSS_SHADOW");
    if (watch == NULL || shadow == NULL) return;
    char proc_path[64], path[PATH_MAX];
    snprintf(proc_path, sizeof proc_path, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(proc_path, path, sizeof path - 1);
    if (length <= 0) return;
    path[length] = 0;
    struct stat info;
    if (fstat(fd, &info) != 0) return;
    size_t watch_length = strlen(watch);

    pthread_mutex_lock(&shadow_lock);
    if (S_ISDIR(info.st_mode)) {
        if (strcmp(path, watch) == 0) record_names(watch, shadow);
    } else if (S_ISREG(info.st_mode) && strncmp(path, watch, watch_length) == 0 && path[watch_length] == '/'
               && strchr(path + watch_length + 1, '/') == NULL) {
        char target[PATH_MAX];
        snprintf(target, sizeof target, "%s/inode-%llu", shadow, (unsigned long long)info.st_ino);
        copy_file(fd, target);
    }
    pthread_mutex_unlock(&shadow_lock);
}

int fsync(int fd) {
    static int (*real)(int);
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    int rc = real(fd);
    if (rc == 0) {
        int saved = errno;
        record_sync(fd);
        errno = saved;
    }
    return rc;
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    int rc = real(fd);
    if (rc == 0) {
        int saved = errno;
        record_sync(fd);
        errno = saved;
    }
    return rc;
}
