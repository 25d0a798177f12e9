/*
 * escape-probe replace-bound DIR: DIR is a folder the app may only read and
 * execute from, bound read-only inside a folder it may write (its parent's
 * parent). The bind stops a write in place, not a rename of DIR's parent,
 * which happens on the host: the probe writes in place, moves DIR's parent
 * aside (PARENT.aside), makes DIR again and plants DIR/planted — one
 * "name: allowed/denied (ERRNO)" line per step. Afterwards the host finds a
 * file the app wrote at DIR's path (SandboxTests/CodeFolderRenameTests).
 */
#define _GNU_SOURCE

#include "attempts.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int plant(const char *dir) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/planted", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return errno;
    static const char text[] = "planted by the app\n";
    int rc = write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1) ? 0 : errno;
    close(fd);
    return rc;
}

int replace_bound(const char *dir) {
    char parent[PATH_MAX], aside[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", dir);
    char *slash = strrchr(parent, '/');
    if (slash == NULL || slash == parent) {
        fprintf(stderr, "escape-probe: %s has no parent to move\n", dir);
        return 2;
    }
    *slash = '\0';
    snprintf(aside, sizeof aside, "%s.aside", parent);
    result_line("write_in_place", plant(dir));
    int moved = rename(parent, aside) == 0 ? 0 : errno;
    result_line("rename_parent", moved);
    if (moved != 0) return 1;
    result_line("make_parent", mkdir(parent, 0755) == 0 ? 0 : errno);
    result_line("make_folder", mkdir(dir, 0755) == 0 ? 0 : errno);
    result_line("plant", plant(dir));
    return 0;
}
