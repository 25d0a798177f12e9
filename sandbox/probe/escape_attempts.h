/* The escapes the probe tries once confined, one printed line each. */
#ifndef ESCAPE_ATTEMPTS_H
#define ESCAPE_ATTEMPTS_H

#include "probe_setup.h"

/* Sockets of other families; abstract and pathname Unix sockets outside. */
void attempt_network_escapes(const struct probe_fixtures *fixtures);

/* Tracing, reading memory of, or signalling processes outside the sandbox. */
void attempt_process_escapes(const struct probe_fixtures *fixtures);

/* Reading, writing and executing outside the allowed paths. */
void attempt_file_escapes(const struct probe_options *options);

/* Kernel surface: io_uring, bpf, keyrings, namespaces, foreign syscall ABIs. */
void attempt_kernel_escapes(const struct probe_fixtures *fixtures);

/* Single attempts the second stage repeats after execve. */
void attempt_inet_socket(void);
void attempt_read(const char *name, const char *path);

/* The process state confinement sets: no_new_privs, dumpable, core limit. */
void report_process_state(void);

/* A kept fd still carries data; a stray fd is close-on-exec or closed. */
void report_descriptors(const int kept_pair[2], int stray_fd);

#endif
