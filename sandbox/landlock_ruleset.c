/* GNU: O_PATH. */
#define _GNU_SOURCE

#include "landlock_ruleset.h"

#include "landlock_uapi.h"
#include "step_error.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char step[] = "landlock";

/* Rights Landlock accepts on a rule for a single file (not a directory). */
static const uint64_t file_rights = OHK_LL_FS_EXECUTE | OHK_LL_FS_WRITE_FILE |
    OHK_LL_FS_READ_FILE | OHK_LL_FS_TRUNCATE | OHK_LL_FS_IOCTL_DEV;

static const uint64_t read_rights = OHK_LL_FS_READ_FILE | OHK_LL_FS_READ_DIR;

static const uint64_t read_exec_rights =
    OHK_LL_FS_EXECUTE | OHK_LL_FS_READ_FILE | OHK_LL_FS_READ_DIR;

/* Everything needed to edit a tree, but no EXECUTE (a file the app writes can
   not become a program it runs) and no device nodes (MAKE_CHAR/MAKE_BLOCK).
   IOCTL_DEV only matters for device files the caller chose to make writable,
   such as a terminal. */
static const uint64_t read_write_rights = OHK_LL_FS_READ_FILE | OHK_LL_FS_READ_DIR |
    OHK_LL_FS_WRITE_FILE | OHK_LL_FS_TRUNCATE | OHK_LL_FS_REMOVE_DIR |
    OHK_LL_FS_REMOVE_FILE | OHK_LL_FS_MAKE_DIR | OHK_LL_FS_MAKE_REG |
    OHK_LL_FS_MAKE_SOCK | OHK_LL_FS_MAKE_FIFO | OHK_LL_FS_MAKE_SYM |
    OHK_LL_FS_REFER | OHK_LL_FS_IOCTL_DEV;

/* Returns the kernel's Landlock ABI, or 0 with *why set when it has none
   (ENOSYS: not built in; EOPNOTSUPP: disabled at boot). */
static int probe_abi(int *why) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
                       OHK_LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 0) {
        *why = errno;
        return 0;
    }
    return (int)abi;
}

/* The kernel rejects rights it does not know, so handle exactly those of its ABI. */
static void handle_rights_of_abi(struct ohk_landlock_ruleset *ruleset, int allow_inet) {
    int abi = ruleset->abi;
    ruleset->handled_fs = (OHK_LL_FS_MAKE_SYM << 1) - 1; /* ABI 1: EXECUTE..MAKE_SYM */
    if (abi >= 2) ruleset->handled_fs |= OHK_LL_FS_REFER;
    if (abi >= 3) ruleset->handled_fs |= OHK_LL_FS_TRUNCATE;
    if (abi >= 5) ruleset->handled_fs |= OHK_LL_FS_IOCTL_DEV;
    /* No rule ever allows TCP: seccomp already refuses inet sockets, this is
       the second wall should the filter be loosened. An app given the network
       (allow_inet) has TCP unhandled: its namespace is the boundary then. */
    ruleset->handled_net = abi >= 4 && !allow_inet ? (OHK_LL_NET_BIND_TCP | OHK_LL_NET_CONNECT_TCP) : 0;
    ruleset->scoped = abi >= 6
        ? (OHK_LL_SCOPE_ABSTRACT_UNIX_SOCKET | OHK_LL_SCOPE_SIGNAL) : 0;
}

static int add_path_rule(struct ohk_landlock_ruleset *ruleset, const char *path,
                         uint64_t rights, const char *list_name,
                         char *err, size_t err_len) {
    if (path == NULL) {
        return ohk_step_fail(err, err_len, step, EINVAL, "%s has a NULL path", list_name);
    }
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) {
        return ohk_step_fail(err, err_len, step, errno, "cannot open %s path '%s'",
                             list_name, path);
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int saved = errno;
        close(fd);
        return ohk_step_fail(err, err_len, step, saved, "cannot stat %s path '%s'",
                             list_name, path);
    }
    struct ohk_landlock_path_beneath_attr rule = {
        .allowed_access = rights & ruleset->handled_fs,
        .parent_fd = fd,
    };
    if (!S_ISDIR(st.st_mode)) {
        rule.allowed_access &= file_rights;
    }
    long rc = syscall(SYS_landlock_add_rule, ruleset->fd, OHK_LANDLOCK_RULE_PATH_BENEATH,
                      &rule, 0);
    int saved = errno;
    close(fd);
    if (rc != 0) {
        return ohk_step_fail(err, err_len, step, saved, "cannot add rule for %s path '%s'",
                             list_name, path);
    }
    return 0;
}

int ohk_landlock_abi(void) {
    int why;
    return probe_abi(&why);
}

int ohk_landlock_build(const struct ohk_confinement *confinement,
                       struct ohk_landlock_ruleset *ruleset,
                       char *err, size_t err_len) {
    *ruleset = (struct ohk_landlock_ruleset){ .fd = -1 };
    int why = 0;
    ruleset->abi = probe_abi(&why);
    if (ruleset->abi == 0) {
        if (confinement->landlock_min_abi <= 0) {
            return 0; /* best effort: the report shows landlock_abi 0 */
        }
        return ohk_step_fail(err, err_len, step, why,
                             "the kernel has no Landlock, the policy requires ABI %d",
                             confinement->landlock_min_abi);
    }
    if (ruleset->abi < confinement->landlock_min_abi) {
        return ohk_step_fail(err, err_len, step, 0,
                             "the kernel has Landlock ABI %d, the policy requires ABI %d",
                             ruleset->abi, confinement->landlock_min_abi);
    }
    handle_rights_of_abi(ruleset, confinement->allow_inet);

    struct ohk_landlock_ruleset_attr attr = {
        .handled_access_fs = ruleset->handled_fs,
        .handled_access_net = ruleset->handled_net,
        .scoped = ruleset->scoped,
    };
    long fd = syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (fd < 0) {
        return ohk_step_fail(err, err_len, step, errno, "cannot create a ruleset for ABI %d",
                             ruleset->abi);
    }
    ruleset->fd = (int)fd;

    for (size_t i = 0; i < confinement->n_read_exec; i++) {
        if (add_path_rule(ruleset, confinement->read_exec_paths[i], read_exec_rights,
                          "read_exec", err, err_len) != 0) {
            ohk_landlock_release(ruleset);
            return -1;
        }
    }
    for (size_t i = 0; i < confinement->n_read; i++) {
        if (add_path_rule(ruleset, confinement->read_paths[i], read_rights,
                          "read", err, err_len) != 0) {
            ohk_landlock_release(ruleset);
            return -1;
        }
    }
    for (size_t i = 0; i < confinement->n_read_write; i++) {
        if (add_path_rule(ruleset, confinement->read_write_paths[i], read_write_rights,
                          "read_write", err, err_len) != 0) {
            ohk_landlock_release(ruleset);
            return -1;
        }
    }
    return 0;
}

int ohk_landlock_enforce(struct ohk_landlock_ruleset *ruleset, char *err, size_t err_len) {
    if (ruleset->fd < 0) {
        return 0;
    }
    if (syscall(SYS_landlock_restrict_self, ruleset->fd, 0) != 0) {
        return ohk_step_fail(err, err_len, step, errno, "cannot enforce the ruleset");
    }
    return 0;
}

void ohk_landlock_release(struct ohk_landlock_ruleset *ruleset) {
    if (ruleset->fd >= 0) {
        close(ruleset->fd);
        ruleset->fd = -1;
    }
}
