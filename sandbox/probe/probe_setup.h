/* What the probe reads from its command line, and what it sets up before it
   confines itself (so the escapes have something real to reach for). */
#ifndef PROBE_SETUP_H
#define PROBE_SETUP_H

#include <stddef.h>
#include <sys/types.h>

#define PROBE_MAX_PATHS 16

struct probe_options {
    int confine;            /* 0 with --no-confine: the control run */
    int confinements;       /* --confinements N: confine N times (default 1) */
    int min_landlock_abi;
    const char *read_exec[PROBE_MAX_PATHS];
    size_t n_read_exec;
    const char *read_write[PROBE_MAX_PATHS];
    size_t n_read_write;
    const char *secret_file;     /* outside every allowed path */
    const char *readable_file;   /* beneath a read_exec path */
    const char *outside_dir;     /* outside every allowed path */
    const char *read_only_dir;   /* a read_exec path */
    const char *writable_dir;    /* a read_write path */
    const char *outside_program; /* an executable outside every allowed path */

    /* Second stage, after the probe re-executed itself. */
    int after_exec;
    int kept_fds[2];
    int stray_fd;
};

struct probe_fixtures {
    int kept_pair[2];        /* a connected AF_UNIX pair, both kept (the broker socket's stand-in) */
    int stray_fd;            /* open without FD_CLOEXEC, not kept */
    pid_t sleeper;           /* an unconfined child, forked before confinement */
    int sleeper_release_fd;  /* closing it (at exec) lets the sleeper exit */
    char abstract_name[64];  /* an abstract AF_UNIX listener made before confinement */
    int abstract_listener;
    char pathname_socket[108]; /* a pathname AF_UNIX listener in outside_dir */
    int pathname_listener;
};

/* Exits with status 2 and a message on stderr for a bad command line. */
void probe_parse_options(int argc, char **argv, struct probe_options *options);

/* Exits with status 2 if a fixture cannot be made: the test is then broken,
   not the sandbox. */
void probe_make_fixtures(const struct probe_options *options, struct probe_fixtures *fixtures);

/* A global the sleeper also has (same address after fork), for process_vm_readv. */
extern volatile int probe_sleeper_marker;

#endif
