/*
 * The uid switch of an app launched by root, and the hand-over of its data
 * folder to that uid (HealthSandboxKit/AppIdentitySwitch decides the ids;
 * this only applies and verifies them). In C because glibc declares
 * setresuid/setresgid only under _GNU_SOURCE, which Swift's Glibc module does
 * not define, and because the folder walk must work on descriptors.
 */
#define _GNU_SOURCE

#include "CSandbox.h"

#include "step_error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ohk_switch_ids(uint32_t uid, uint32_t gid, char *err, size_t err_len) {
    if (uid == 0 || gid == 0) {
        return ohk_step_fail(err, err_len, "uid switch", 0, "refusing to switch to uid %u gid %u", uid, gid);
    }
    /* Groups and gid first: once the uid is not 0, they can no longer be changed. */
    if (setgroups(0, NULL) != 0) {
        return ohk_step_fail(err, err_len, "uid switch", errno, "setgroups");
    }
    if (setresgid(gid, gid, gid) != 0) {
        return ohk_step_fail(err, err_len, "uid switch", errno, "setresgid(%u)", gid);
    }
    if (setresuid(uid, uid, uid) != 0) {
        return ohk_step_fail(err, err_len, "uid switch", errno, "setresuid(%u)", uid);
    }
    uid_t ruid, euid, suid;
    gid_t rgid, egid, sgid;
    if (getresuid(&ruid, &euid, &suid) != 0 || getresgid(&rgid, &egid, &sgid) != 0) {
        return ohk_step_fail(err, err_len, "uid switch", errno, "reading the ids back");
    }
    if (ruid != uid || euid != uid || suid != uid || rgid != gid || egid != gid || sgid != gid) {
        return ohk_step_fail(err, err_len, "uid switch", 0, "ids are %u/%u/%u gid %u/%u/%u after switching to %u/%u",
                             ruid, euid, suid, rgid, egid, sgid, uid, gid);
    }
    if (getgroups(0, NULL) != 0) {
        return ohk_step_fail(err, err_len, "uid switch", 0, "supplementary groups left after setgroups(0)");
    }
    /* Root must be out of reach for good, not only set aside. */
    if (setuid(0) == 0) {
        return ohk_step_fail(err, err_len, "uid switch", 0, "uid 0 is still reachable after switching to %u", uid);
    }
    return 0;
}

enum { HAND_OVER_MAX_DEPTH = 64 };

/* Changes the owner of every entry of the directory `dir_fd` (already verified
   and handed over), descending into subdirectories through O_NOFOLLOW opens. */
static int hand_over_entries(int dir_fd, uint32_t uid, uint32_t gid, int depth, char *err, size_t err_len) {
    if (depth > HAND_OVER_MAX_DEPTH) {
        return ohk_step_fail(err, err_len, "data folder", 0, "nested deeper than %d levels", HAND_OVER_MAX_DEPTH);
    }
    int listing_fd = dup(dir_fd);
    if (listing_fd < 0) {
        return ohk_step_fail(err, err_len, "data folder", errno, "dup");
    }
    DIR *listing = fdopendir(listing_fd);
    if (listing == NULL) {
        int saved = errno;
        close(listing_fd);
        return ohk_step_fail(err, err_len, "data folder", saved, "listing a folder");
    }
    int result = 0;
    struct dirent *entry;
    while (result == 0 && (errno = 0, entry = readdir(listing)) != NULL) {
        const char *name = entry->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
            continue;
        }
        struct stat status;
        if (fstatat(dir_fd, name, &status, AT_SYMLINK_NOFOLLOW) != 0) {
            result = ohk_step_fail(err, err_len, "data folder", errno, "stat '%s'", name);
            break;
        }
        if (!S_ISDIR(status.st_mode) && status.st_nlink > 1) {
            result = ohk_step_fail(err, err_len, "data folder", 0,
                                   "'%s' has %lu hard links; refusing to give a file that may be another's to the app",
                                   name, (unsigned long)status.st_nlink);
            break;
        }
        if (fchownat(dir_fd, name, uid, gid, AT_SYMLINK_NOFOLLOW) != 0) {
            result = ohk_step_fail(err, err_len, "data folder", errno, "chown '%s'", name);
            break;
        }
        if (S_ISDIR(status.st_mode)) {
            int child = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child < 0) {
                result = ohk_step_fail(err, err_len, "data folder", errno, "open folder '%s'", name);
                break;
            }
            result = hand_over_entries(child, uid, gid, depth + 1, err, err_len);
            close(child);
        }
    }
    if (result == 0 && errno != 0) {
        result = ohk_step_fail(err, err_len, "data folder", errno, "reading a folder");
    }
    closedir(listing);
    return result;
}

int ohk_hand_over_tree(const char *path, uint32_t uid, uint32_t gid, char *err, size_t err_len) {
    if (uid == 0 || gid == 0) {
        return ohk_step_fail(err, err_len, "data folder", 0, "refusing to give it to uid %u gid %u", uid, gid);
    }
    /* O_NOFOLLOW refuses a link as the folder itself; links higher up the
       path are root's own choice (the launching user named the path). */
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        return ohk_step_fail(err, err_len, "data folder", errno, "open '%s' (a link is refused, not followed)", path);
    }
    int result = fchown(fd, uid, gid) == 0
        ? hand_over_entries(fd, uid, gid, 1, err, err_len)
        : ohk_step_fail(err, err_len, "data folder", errno, "chown '%s'", path);
    close(fd);
    return result;
}
