/* The escape attempts of escape-probe, grouped by what they reach for. */
#ifndef ESCAPE_PROBE_ATTEMPTS_H
#define ESCAPE_PROBE_ATTEMPTS_H

#include <errno.h>
#include <sys/types.h>

struct targets {
    pid_t healthd_pid;          /* healthd, outside the sandbox */
    const char *store;          /* its store folder */
    const char *key;            /* its machine.key */
    const char *app_socket;     /* app.sock, by path */
    const char *admin_socket;   /* admin.sock */
    const char *own_file;       /* a file of the app's own read-only install folder */
    const char *writable_dir;   /* the app's data folder */
    const char *outside_abstract; /* an abstract Unix socket listening outside */
    const char *tmp_marker;     /* optional: a file in the host's /tmp (the app's /tmp is private) */
};

/* escape-probe emit / flood / try-folders (output.c): what an app prints, how fast,
   and which folders it can write. */
int emit(const char *out_hex, const char *err_hex, const char *ending);
int flood(long long total, const char *count_file);
int try_folders(const char *folders);

/* "name: allowed" for rc 0, else "name: denied (ERRNO)". */
void result_line(const char *name, int errnum);

/* uid, gid, every capability set, no_new_privs, seccomp mode; which of fds 0-2 are a
   terminal open for reading, and for writing ("terminal_readable: 0 2" or "none"). */
void report_identity(void);
/* The store, the key, chmod/utimensat/setxattr, device files. */
void attempt_files(const struct targets *t);
/* The broker's sockets by path, network, abstract sockets both ways. */
void attempt_sockets(const struct targets *t);
/* Seeing, tracing, slowing healthd. */
void attempt_broker_process(const struct targets *t);
/* setuid exec, exec of written files, memfd + execveat. */
void attempt_code_execution(const struct targets *t);

/* 0 or the errno of connecting to the Unix socket `name` (abstract: no file). */
int connect_unix(const char *name, int abstract);

/* The network of an app: an AF_INET socket, a TCP connect to 127.0.0.1:`port`
   (a listener outside), and the abstract socket `outside_abstract`. */
int attempt_network(int port, const char *outside_abstract);

/* Writes into `data` and `foreign`, prints "holding", waits for stdin to close (≤ 30 s). */
int hold(const char *data, const char *foreign);

/* Binds the abstract socket `name`, prints that, and whether a connection came within 3 s. */
int listen_abstract(const char *name);

/* Writes into `dir` (bound read-only in a writable folder), then moves its parent aside,
   makes `dir` again and writes `dir`/planted: one result line per step. */
int replace_bound(const char *dir);

#endif
