#pragma once
#include <stddef.h>
#include <sys/types.h>

/*
 * Reads a small /proc file (status, fdinfo) whole into `text`, NUL-terminated, at most
 * size - 1 bytes: its length, or -1. Only open, read and close: callable in the peer inspector
 * under its seccomp allow-list.
 */
ssize_t ohk_proc_read(const char *path, char *text, size_t size);

/* The number after "\nNAME:" in `text` (a field past the first line), or -1 when absent. */
long ohk_proc_field_in(const char *text, const char *name);
