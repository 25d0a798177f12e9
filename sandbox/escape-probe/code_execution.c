/* Running programs the sandbox does not grant: setuid ones, files the app
   wrote, code in a memfd. */
#define _GNU_SOURCE

#include "attempts.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Forks; the child execs (by path, or by fd with execveat) with its output to
   /dev/null and reports a failed exec's errno through a close-on-exec pipe.
   Returns 0 if the exec itself succeeded, whatever the program then did. */
static int exec_in_child(const char *path, int fd, char *const argv[]) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return errno;
    pid_t child = fork();
    if (child < 0) return errno;
    if (child == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) { dup2(null, 0); dup2(null, 1); dup2(null, 2); }
        if (path != NULL) {
            execv(path, argv);
        } else {
            syscall(SYS_execveat, fd, "", argv, environ, AT_EMPTY_PATH);
        }
        int failure = errno;
        (void)!write(report[1], &failure, sizeof failure);
        _exit(127);
    }
    close(report[1]);
    int failure = 0;
    ssize_t n = read(report[0], &failure, sizeof failure);
    close(report[0]);
    int status;
    waitpid(child, &status, 0);
    return n == (ssize_t)sizeof failure ? failure : 0;
}

/* Copies this program into `fd`, so what runs is code the app wrote. */
static int copy_self(int fd) {
    int self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (self < 0) return errno;
    char buffer[65536];
    ssize_t n;
    int rc = 0;
    while ((n = read(self, buffer, sizeof buffer)) > 0) {
        if (write(fd, buffer, (size_t)n) != n) { rc = errno; break; }
    }
    close(self);
    return rc;
}

void attempt_code_execution(const struct targets *t) {
    char *const su[] = { "su", "--version", NULL };
    result_line("exec_setuid", exec_in_child("/usr/bin/su", -1, su));

    char written[4096];
    snprintf(written, sizeof written, "%s/written-program", t->writable_dir);
    int out = open(written, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
    if (out >= 0) {
        copy_self(out);
        close(out);
        char *const argv[] = { "written-program", NULL };
        result_line("exec_written_file", exec_in_child(written, -1, argv));
        unlink(written);
    } else {
        result_line("exec_written_file", errno);
    }

    int memfd = memfd_create("ohk-escape", MFD_CLOEXEC);
    result_line("memfd_create", memfd < 0 ? errno : 0);
    if (memfd >= 0) {
        copy_self(memfd);
        char *const argv[] = { "memfd-program", NULL };
        result_line("memfd_execveat", exec_in_child(NULL, memfd, argv));
        close(memfd);
    }
    /* execveat itself, on a file the app may execute (its own install folder). */
    int own = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    char *const argv[] = { "escape-probe", NULL };
    result_line("execveat_own_program", own < 0 ? errno : exec_in_child(NULL, own, argv));
    if (own >= 0) close(own);
}
