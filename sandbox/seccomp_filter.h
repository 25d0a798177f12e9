/* seccomp: build the filter (no effect on the process), then load it. */
#ifndef OHK_SECCOMP_FILTER_H
#define OHK_SECCOMP_FILTER_H

#include <stddef.h>

struct ohk_seccomp_filter {
    void *context; /* scmp_filter_ctx; NULL after release */
};

/* Builds the filter: foreign architectures are killed, a fixed list of system
   calls that reach other processes, the kernel or non-Unix networks fails with
   an errno, everything else is allowed (see seccomp_filter.c for why).
   allow_inet: AF_INET and AF_INET6 sockets are allowed besides AF_UNIX. */
int ohk_seccomp_build(struct ohk_seccomp_filter *filter, int allow_inet, char *err, size_t err_len);

/* Loads the filter on the calling thread. Needs no_new_privs. */
int ohk_seccomp_load(struct ohk_seccomp_filter *filter, char *err, size_t err_len);

void ohk_seccomp_release(struct ohk_seccomp_filter *filter);

#endif
