/*
 * hung-fuse: a FUSE file system that never answers. Mounts itself on DIR (as root), completes
 * the kernel's INIT handshake and then reads every request without replying, so any lookup or
 * attribute fetch under DIR waits for as long as this process lives. Killing it aborts the
 * connection: every waiting call then fails with ENOTCONN. Prints "mounted" once mounted.
 * PeerIdentificationStallTests uses it to model a peer's path that a stat would block on.
 *
 *   hung-fuse DIR
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

/* The kernel refuses reads into buffers smaller than this (FUSE_MIN_READ_BUFFER) or than a
   request with max_write bytes. */
static char buffer[1 << 17];

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: hung-fuse DIR\n");
        return 2;
    }
    int fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "cannot open /dev/fuse: %s\n", strerror(errno));
        return 1;
    }
    char options[128];
    snprintf(options, sizeof options, "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other", fd);
    if (mount("hung-fuse", argv[1], "fuse.hung", MS_NOSUID | MS_NODEV, options) != 0) {
        fprintf(stderr, "cannot mount on %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    ssize_t n;
    do { n = read(fd, buffer, sizeof buffer); } while (n < 0 && errno == EINTR);
    const struct fuse_in_header *in = (const struct fuse_in_header *)buffer;
    if (n < (ssize_t)(sizeof *in + sizeof(struct fuse_init_in)) || in->opcode != FUSE_INIT) {
        fprintf(stderr, "no INIT from the kernel\n");
        return 1;
    }
    const struct fuse_init_in *init = (const struct fuse_init_in *)(in + 1);
    struct {
        struct fuse_out_header header;
        struct fuse_init_out init;
    } reply;
    memset(&reply, 0, sizeof reply);
    reply.header.len = sizeof reply;
    reply.header.unique = in->unique;
    reply.init.major = FUSE_KERNEL_VERSION;
    reply.init.minor = init->minor < FUSE_KERNEL_MINOR_VERSION ? init->minor : FUSE_KERNEL_MINOR_VERSION;
    reply.init.max_readahead = init->max_readahead;
    reply.init.max_write = 4096;
    if (write(fd, &reply, sizeof reply) != (ssize_t)sizeof reply) {
        fprintf(stderr, "INIT reply refused: %s\n", strerror(errno));
        return 1;
    }
    printf("mounted\n");
    fflush(stdout);
    /* Every later request is read and left unanswered. */
    for (;;) {
        n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno != EINTR && errno != ENOENT && errno != EAGAIN) return 0;
    }
}
