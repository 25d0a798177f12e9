/* Landlock: probe the kernel's ABI, build a ruleset from the caller's paths,
   enforce it. Building changes nothing about the process; enforcing does. */
#ifndef OHK_LANDLOCK_RULESET_H
#define OHK_LANDLOCK_RULESET_H

#include "CSandbox.h"

struct ohk_landlock_ruleset {
    int fd;                /* -1 when Landlock is skipped (best effort, no kernel support) */
    int abi;               /* kernel's ABI, 0 if none */
    uint64_t handled_fs;
    uint64_t handled_net;
    uint64_t scoped;
};

/* Builds the ruleset: every right the kernel's ABI knows is handled (denied
   unless a rule allows it), then one rule per path. Fails if a path cannot be
   opened or the ABI is below confinement->landlock_min_abi. */
int ohk_landlock_build(const struct ohk_confinement *confinement,
                       struct ohk_landlock_ruleset *ruleset,
                       char *err, size_t err_len);

/* Restricts the calling thread (and what it execs) to the ruleset. Needs
   no_new_privs (or CAP_SYS_ADMIN). A skipped ruleset is a no-op. */
int ohk_landlock_enforce(struct ohk_landlock_ruleset *ruleset, char *err, size_t err_len);

/* Closes the ruleset descriptor; safe to call more than once. */
void ohk_landlock_release(struct ohk_landlock_ruleset *ruleset);

#endif
