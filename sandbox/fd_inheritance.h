/* Which descriptors the app inherits: the kept ones, and 0, 1, 2. */
#ifndef OHK_FD_INHERITANCE_H
#define OHK_FD_INHERITANCE_H

#include <stddef.h>

/* Checks that every descriptor to keep is open. Changes nothing. */
int ohk_fds_check(const int *keep_fds, size_t n_keep_fds, char *err, size_t err_len);

/* Clears FD_CLOEXEC on the kept descriptors and sets it on every other
   descriptor >= 3, so execve closes exactly those. */
int ohk_fds_restrict_inheritance(const int *keep_fds, size_t n_keep_fds,
                                 char *err, size_t err_len);

#endif
