/*
 * escape-probe: an app that tries to escape the real sandbox (health-sandbox
 * run: bubblewrap namespaces, then Landlock and seccomp) and prints one
 * "name: result" line per attempt: "allowed", "denied (ERRNO)", or a value.
 * Tests/SandboxTests/RealSandboxEscapeTests runs it confined, as root and as
 * an unprivileged user, and unconfined as the control.
 *
 *   escape-probe attempts --healthd-pid PID --store DIR --key FILE
 *                --app-socket PATH --admin-socket PATH --own-file PATH
 *                --writable-dir DIR --outside-abstract NAME [--tmp-marker FILE]
 *   escape-probe listen-abstract NAME
 *       binds the abstract Unix socket NAME, says so, and reports whether
 *       anything connected to it within 3 seconds (the test tries from outside).
 *   escape-probe network PORT NAME
 *       an AF_INET socket, a TCP connect to 127.0.0.1:PORT and a connect to
 *       the abstract socket NAME, all listening outside.
 *   escape-probe hold DATA FOREIGN
 *       writes a file into DATA and into FOREIGN, says "holding" and waits
 *       for stdin to close (the test reads its uid from outside meanwhile).
 *   escape-probe emit STDOUT-HEX STDERR-HEX EXIT | flood BYTES COUNT-FILE
 *       what an app prints to the user's terminal, and how fast (output.c).
 *   ESCAPE_PROBE_TRY_FOLDERS=DIR:DIR… escape-probe
 *       as launched by the agent: "write DIR: allowed/denied (ERRNO)" for each.
 *   escape-probe replace-bound DIR
 *       DIR bound read-only in a writable folder: a write in place, then its
 *       parent moved aside and a file planted at DIR's path (bound_replace.c).
 *   escape-probe exec-victim --app-socket PATH -- VICTIM ARGS...
 *       runs VICTIM (another app's executable) with LD_PRELOAD set and the
 *       broker reached by path, as injected code would.
 *
 * The attempts on healthd only read or re-set its current values (a
 * priority to the one it has), so the control run does not harm it.
 */
#define _GNU_SOURCE

#include "attempts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *option(int argc, char **argv, const char *name) {
    for (int i = 2; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--") == 0) return NULL;
        if (strcmp(argv[i], name) == 0) return argv[i + 1];
    }
    return NULL;
}

static const char *required(int argc, char **argv, const char *name) {
    const char *value = option(argc, argv, name);
    if (value == NULL) {
        fprintf(stderr, "escape-probe: missing %s\n", name);
        exit(2);
    }
    return value;
}

/* Injected code in another app's executable: LD_PRELOAD set (to a library the
   attacker wrote, if it could write one), the launch-bound descriptor dropped,
   the broker's app socket named by path. */
static int exec_victim(int argc, char **argv) {
    const char *app_socket = required(argc, argv, "--app-socket");
    int first = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) { first = i + 1; break; }
    }
    if (first == 0 || first >= argc) {
        fprintf(stderr, "escape-probe: give the victim's executable after --\n");
        return 2;
    }
    unsetenv("OPENHEALTH_SOCKET_FD");
    setenv("OPENHEALTH_APP_SOCKET", app_socket, 1);
    setenv("LD_PRELOAD", "/tmp/injected.so", 1);
    execv(argv[first], argv + first);
    printf("exec_victim: denied (%s)\n", strerrorname_np(errno));
    return 1;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 2 && strcmp(argv[1], "exec-victim") == 0) {
        return exec_victim(argc, argv);
    }
    if (argc == 4 && strcmp(argv[1], "network") == 0) {
        return attempt_network(atoi(argv[2]), argv[3]);
    }
    if (argc == 4 && strcmp(argv[1], "hold") == 0) {
        return hold(argv[2], argv[3]);
    }
    if (argc == 3 && strcmp(argv[1], "replace-bound") == 0) {
        return replace_bound(argv[2]);
    }
    if (argc == 3 && strcmp(argv[1], "listen-abstract") == 0) {
        return listen_abstract(argv[2]);
    }
    if (argc == 5 && strcmp(argv[1], "emit") == 0) {
        return emit(argv[2], argv[3], argv[4]);
    }
    if (argc == 4 && strcmp(argv[1], "flood") == 0) {
        return flood(atoll(argv[2]), argv[3]);
    }
    /* Launched by the agent, which passes no arguments: the folders come in the environment. */
    if (argc == 1 && getenv("ESCAPE_PROBE_TRY_FOLDERS") != NULL) {
        return try_folders(getenv("ESCAPE_PROBE_TRY_FOLDERS"));
    }
    if (argc < 2 || strcmp(argv[1], "attempts") != 0) {
        fprintf(stderr, "usage: escape-probe attempts … | exec-victim --app-socket PATH -- VICTIM ARGS…\n");
        return 2;
    }
    struct targets t = {
        .healthd_pid = atoi(required(argc, argv, "--healthd-pid")),
        .store = required(argc, argv, "--store"),
        .key = required(argc, argv, "--key"),
        .app_socket = required(argc, argv, "--app-socket"),
        .admin_socket = required(argc, argv, "--admin-socket"),
        .own_file = required(argc, argv, "--own-file"),
        .writable_dir = required(argc, argv, "--writable-dir"),
        .outside_abstract = required(argc, argv, "--outside-abstract"),
        .tmp_marker = option(argc, argv, "--tmp-marker"),
    };
    report_identity();
    attempt_files(&t);
    attempt_sockets(&t);
    attempt_broker_process(&t);
    attempt_code_execution(&t);
    return 0;
}
