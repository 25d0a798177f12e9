#define _GNU_SOURCE

#include "escape_attempts.h"

#include "probe_output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void try_open(const char *name, const char *path, int flags) {
    int fd = open(path, flags | O_CLOEXEC, 0600);
    probe_errno_line(name, fd < 0 ? errno : 0);
    if (fd >= 0) {
        close(fd);
    }
}

static void try_create_in(const char *name, const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/created-by-probe", dir);
    try_open(name, path, O_WRONLY | O_CREAT | O_TRUNC);
}

static void try_list(const char *name, const char *dir) {
    DIR *d = opendir(dir);
    probe_errno_line(name, d == NULL ? errno : 0);
    if (d != NULL) {
        closedir(d);
    }
}

/* Reports whether execve itself succeeded, whatever the program then does:
   the child sends execve's errno through a close-on-exec pipe, so an empty
   pipe means the exec happened. The program's output is discarded. */
static void try_exec(const char *name, const char *path) {
    int result_pipe[2];
    if (pipe2(result_pipe, O_CLOEXEC) != 0) {
        probe_line(name, "probe error: no pipe");
        return;
    }
    pid_t pid = fork();
    if (pid < 0) {
        probe_line(name, "probe error: fork failed");
        return;
    }
    if (pid == 0) {
        close(result_pipe[0]);
        close(STDOUT_FILENO);
        close(STDERR_FILENO);
        char *const argv[] = { (char *)path, NULL };
        char *const envp[] = { NULL };
        execve(path, argv, envp);
        int errnum = errno;
        (void)!write(result_pipe[1], &errnum, sizeof errnum);
        _exit(127);
    }
    close(result_pipe[1]);
    int errnum = 0;
    ssize_t n;
    while ((n = read(result_pipe[0], &errnum, sizeof errnum)) < 0 && errno == EINTR) {
    }
    close(result_pipe[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    probe_errno_line(name, n == (ssize_t)sizeof errnum ? errnum : 0);
}

/* Copies the probe's own binary into dir and marks it executable: the app can
   write files there, and must not be able to run what it wrote. Returns 0 or
   errno; the path goes into copy_path. */
static int write_executable_copy(const char *dir, char *copy_path, size_t size) {
    snprintf(copy_path, size, "%s/copied-program", dir);
    int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (in < 0) return errno;
    int out = open(copy_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
    if (out < 0) {
        int saved = errno;
        close(in);
        return saved;
    }
    char buffer[65536];
    ssize_t n;
    int result = 0;
    while ((n = read(in, buffer, sizeof buffer)) > 0) {
        if (write(out, buffer, (size_t)n) != n) {
            result = errno != 0 ? errno : EIO;
            break;
        }
    }
    if (n < 0) result = errno;
    close(in);
    close(out);
    return result;
}

void attempt_read(const char *name, const char *path) {
    try_open(name, path, O_RDONLY);
}

void attempt_file_escapes(const struct probe_options *o) {
    attempt_read("read_secret", o->secret_file);
    attempt_read("read_allowed", o->readable_file);
    try_list("list_outside_dir", o->outside_dir);
    try_list("list_read_only_dir", o->read_only_dir);
    try_create_in("write_outside", o->outside_dir);
    try_create_in("write_read_only_dir", o->read_only_dir);
    try_create_in("write_writable_dir", o->writable_dir);
    try_exec("exec_outside", o->outside_program);

    char copy[4096];
    int copy_error = write_executable_copy(o->writable_dir, copy, sizeof copy);
    if (copy_error != 0) {
        probe_line("exec_written_file", "probe error: cannot write the copy (errno %d)",
                   copy_error);
        return;
    }
    try_exec("exec_written_file", copy);
}
