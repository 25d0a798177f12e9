#include "child_attempt.h"

#include "probe_output.h"

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

void attempt_in_child(const char *name, child_attempt_fn attempt, const void *context) {
    pid_t pid = fork();
    if (pid < 0) {
        probe_line(name, "probe error: fork failed");
        return;
    }
    if (pid == 0) {
        int errnum = attempt(context);
        /* Exit codes are 8 bits; every errno the attempts meet fits. */
        _exit(errnum > 255 ? 255 : errnum);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            probe_line(name, "probe error: waitpid failed");
            return;
        }
    }
    probe_status_line(name, status);
}
