/* The broker's sockets and process, and the network, from inside. */
#define _GNU_SOURCE

#include "attempts.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

int connect_unix(const char *name, int abstract) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return errno;
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    size_t length = strlen(name);
    if (length + 2 > sizeof address.sun_path) { close(fd); return ENAMETOOLONG; }
    memcpy(address.sun_path + (abstract ? 1 : 0), name, length);
    socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length + (abstract ? 1 : 0));
    int rc = connect(fd, (struct sockaddr *)&address, size) == 0 ? 0 : errno;
    close(fd);
    return rc;
}

/* Whether a line of /proc/net/unix names `path` (the sockets this network namespace sees). */
static const char *unix_socket_listed(const char *path) {
    FILE *table = fopen("/proc/net/unix", "r");
    if (table == NULL) return "unreadable";
    char line[4096];
    const char *found = "absent";
    while (fgets(line, sizeof line, table) != NULL) {
        if (strstr(line, path) != NULL) found = "present";
    }
    fclose(table);
    return found;
}

void attempt_sockets(const struct targets *t) {
    result_line("connect_app_socket", connect_unix(t->app_socket, 0));
    result_line("connect_admin_socket", connect_unix(t->admin_socket, 0));
    printf("proc_net_unix_app_socket: %s\n", unix_socket_listed(t->app_socket));
    int inet = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    result_line("inet_socket", inet < 0 ? errno : 0);
    if (inet >= 0) close(inet);
    int inet6 = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    result_line("inet6_socket", inet6 < 0 ? errno : 0);
    if (inet6 >= 0) close(inet6);
    result_line("abstract_connect_outside", connect_unix(t->outside_abstract, 1));
}

/* Whether any process this /proc shows is named healthd. */
static const char *healthd_visible(void) {
    DIR *proc = opendir("/proc");
    if (proc == NULL) return "unreadable";
    const char *seen = "no";
    struct dirent *entry;
    while ((entry = readdir(proc)) != NULL) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
        char path[300], comm[64] = "";
        snprintf(path, sizeof path, "/proc/%s/comm", entry->d_name);
        FILE *file = fopen(path, "r");
        if (file == NULL) continue;
        if (fgets(comm, sizeof comm, file) != NULL && strncmp(comm, "healthd", 7) == 0) seen = "yes";
        fclose(file);
    }
    closedir(proc);
    return seen;
}

static int rc_errno(long rc) { return rc < 0 ? errno : 0; }

/* Whether any process's command line this /proc shows mentions healthd. */
static const char *healthd_in_cmdlines(void) {
    DIR *proc = opendir("/proc");
    if (proc == NULL) return "unreadable";
    const char *seen = "no";
    struct dirent *entry;
    while ((entry = readdir(proc)) != NULL) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
        char path[300], line[4096];
        snprintf(path, sizeof path, "/proc/%s/cmdline", entry->d_name);
        FILE *file = fopen(path, "r");
        if (file == NULL) continue;
        size_t length = fread(line, 1, sizeof line - 1, file);
        fclose(file);
        line[length] = 0;
        /* argv[0] up to its NUL: the program's path. */
        if (strstr(line, "healthd") != NULL && strstr(line, "escape-probe") == NULL) seen = "yes";
    }
    closedir(proc);
    return seen;
}

/* The per-thread scheduler statistics and the thread list of healthd: timing
   and thread-count side channels on other apps' calls. */
static void attempt_broker_timing(pid_t pid) {
    char path[96];
    snprintf(path, sizeof path, "/proc/%d/task/%d/schedstat", (int)pid, (int)pid);
    FILE *schedstat = fopen(path, "r");
    result_line("proc_healthd_schedstat", schedstat == NULL ? errno : 0);
    if (schedstat != NULL) fclose(schedstat);
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *tasks = opendir(path);
    result_line("proc_healthd_threads", tasks == NULL ? errno : 0);
    if (tasks != NULL) closedir(tasks);
    printf("healthd_in_cmdlines: %s\n", healthd_in_cmdlines());
    /* Its memory, where the store key lives. */
    snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
    int mem = open(path, O_RDONLY | O_CLOEXEC);
    result_line("proc_healthd_mem", mem < 0 ? errno : 0);
    if (mem >= 0) close(mem);
}

/* Each attempt re-sets what healthd already has, so the control run leaves it as it was. */
void attempt_broker_process(const struct targets *t) {
    pid_t pid = t->healthd_pid;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *status = fopen(path, "r");
    result_line("proc_healthd", status == NULL ? errno : 0);
    if (status != NULL) fclose(status);
    printf("healthd_visible: %s\n", healthd_visible());
    attempt_broker_timing(pid);
    result_line("kill0_healthd", rc_errno(kill(pid, 0)));

    long seized = ptrace(PTRACE_SEIZE, pid, NULL, NULL);
    result_line("ptrace_healthd", rc_errno(seized));
    if (seized == 0) ptrace(PTRACE_DETACH, pid, NULL, NULL);

    struct rlimit files;
    result_line("prlimit_healthd", rc_errno(prlimit(pid, RLIMIT_NOFILE, NULL, &files)));

    errno = 0;
    int nice = getpriority(PRIO_PROCESS, (id_t)pid);
    if (errno != 0) nice = 0;
    result_line("setpriority_healthd", rc_errno(setpriority(PRIO_PROCESS, (id_t)pid, nice)));

    struct sched_param param = { .sched_priority = 0 };
    result_line("sched_setscheduler_healthd", rc_errno(sched_setscheduler(pid, SCHED_OTHER, &param)));

    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) CPU_SET(0, &cpus);
    result_line("sched_setaffinity_healthd", rc_errno(sched_setaffinity(pid, sizeof cpus, &cpus)));

    /* IOPRIO_WHO_PROCESS = 1; who 0 is this process: even that is refused. */
    long ioprio = syscall(SYS_ioprio_get, 1, 0);
    result_line("ioprio_set_self", rc_errno(syscall(SYS_ioprio_set, 1, 0, ioprio < 0 ? 0 : ioprio)));
}

int listen_abstract(const char *name) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    size_t length = strlen(name);
    if (fd < 0 || length + 2 > sizeof address.sun_path) {
        result_line("abstract_bind_inside", fd < 0 ? errno : ENAMETOOLONG);
        return 1;
    }
    memcpy(address.sun_path + 1, name, length);
    socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + length);
    int rc = bind(fd, (struct sockaddr *)&address, size) == 0 && listen(fd, 4) == 0 ? 0 : errno;
    result_line("abstract_bind_inside", rc);
    fflush(stdout);
    if (rc != 0) return 1;
    struct pollfd incoming = { .fd = fd, .events = POLLIN };
    printf("abstract_inside_accepted: %s\n", poll(&incoming, 1, 3000) == 1 ? "yes" : "no");
    close(fd);
    return 0;
}
