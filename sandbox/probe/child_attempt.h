/* Runs one attempt in a forked child, for attempts that would change the
   probe itself if they succeeded (unshare, personality, exec) or that may be
   killed by the seccomp filter. The child inherits the confinement. */
#ifndef CHILD_ATTEMPT_H
#define CHILD_ATTEMPT_H

/* The attempt returns 0 on success or the errno it failed with. */
typedef int (*child_attempt_fn)(const void *context);

/* Prints the attempt's line: allowed, denied (ERRNO) or killed (SIGNAL). */
void attempt_in_child(const char *name, child_attempt_fn attempt, const void *context);

#endif
