/*
 * Landlock's kernel interface, as of ABI 7 (Linux 6.15).
 *
 * Written out here rather than taken from <linux/landlock.h> because the
 * installed kernel headers may be older than the running kernel (Debian 12's
 * stop at ABI 2): the running kernel, probed at run time, decides which of
 * these rights are handled. Values are the kernel's stable ABI.
 */
#ifndef OHK_LANDLOCK_UAPI_H
#define OHK_LANDLOCK_UAPI_H

#include <stdint.h>

/* landlock_create_ruleset() flag: return the ABI version instead of a ruleset. */
#define OHK_LANDLOCK_CREATE_RULESET_VERSION (1U << 0)

/* Rule type for landlock_add_rule(). */
#define OHK_LANDLOCK_RULE_PATH_BENEATH 1

/* Filesystem rights, with the ABI that introduced each. */
#define OHK_LL_FS_EXECUTE      (1ULL << 0)  /* ABI 1 */
#define OHK_LL_FS_WRITE_FILE   (1ULL << 1)  /* ABI 1 */
#define OHK_LL_FS_READ_FILE    (1ULL << 2)  /* ABI 1 */
#define OHK_LL_FS_READ_DIR     (1ULL << 3)  /* ABI 1 */
#define OHK_LL_FS_REMOVE_DIR   (1ULL << 4)  /* ABI 1 */
#define OHK_LL_FS_REMOVE_FILE  (1ULL << 5)  /* ABI 1 */
#define OHK_LL_FS_MAKE_CHAR    (1ULL << 6)  /* ABI 1 */
#define OHK_LL_FS_MAKE_DIR     (1ULL << 7)  /* ABI 1 */
#define OHK_LL_FS_MAKE_REG     (1ULL << 8)  /* ABI 1 */
#define OHK_LL_FS_MAKE_SOCK    (1ULL << 9)  /* ABI 1 */
#define OHK_LL_FS_MAKE_FIFO    (1ULL << 10) /* ABI 1 */
#define OHK_LL_FS_MAKE_BLOCK   (1ULL << 11) /* ABI 1 */
#define OHK_LL_FS_MAKE_SYM     (1ULL << 12) /* ABI 1 */
#define OHK_LL_FS_REFER        (1ULL << 13) /* ABI 2: link/rename across directories */
#define OHK_LL_FS_TRUNCATE     (1ULL << 14) /* ABI 3 */
#define OHK_LL_FS_IOCTL_DEV    (1ULL << 15) /* ABI 5: ioctl on device files */

/* Network rights (ABI 4). */
#define OHK_LL_NET_BIND_TCP    (1ULL << 0)
#define OHK_LL_NET_CONNECT_TCP (1ULL << 1)

/* IPC scopes (ABI 6): no reaching outside the Landlock domain. */
#define OHK_LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define OHK_LL_SCOPE_SIGNAL               (1ULL << 1)

/* The ruleset attribute grew with the ABI; older kernels accept this larger
   struct as long as the fields they do not know are zero. */
struct ohk_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct ohk_landlock_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#endif
