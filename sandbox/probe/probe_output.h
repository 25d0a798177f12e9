/* The probe's only output: one "name: result" line per attempt, e.g.
   "inet_socket: denied (EAFNOSUPPORT)". The Swift tests parse these lines. */
#ifndef PROBE_OUTPUT_H
#define PROBE_OUTPUT_H

/* Prefix for every name, "" in the first stage and "after_exec." after the
   probe re-executed itself, so both stages' lines can be told apart. */
void probe_set_stage_prefix(const char *prefix);

void probe_line(const char *name, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* rc 0: "allowed"; otherwise "denied (<errno name>)". */
void probe_errno_line(const char *name, int errnum);

/* A child's wait status: "allowed" (exit 0), "denied (<errno>)" (exit code
   is the errno), or "killed (<signal>)". */
void probe_status_line(const char *name, int wait_status);

#endif
