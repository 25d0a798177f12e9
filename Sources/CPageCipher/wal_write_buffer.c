// The WAL's writes, gathered: a transaction's frames go to the file in one write.
//
// Why: SQLite writes each WAL frame as two writes, its 24-byte header and its page, so a
// one-sample save's commit of 8 frames made 16 pwrite calls, each a system call with its own
// file-system bookkeeping (issue 17, Benchmarks/README.md "Session 20"). Here the sealed
// frames of a run of contiguous writes are kept in one buffer and written once: when a commit
// frame completes (the end of a transaction's writes), when the buffer is full, and before
// anything else touches the file — a read, a write elsewhere, a size, a truncation, a sync, a
// file control, the close.
//
// Why this changes nothing SQLite can tell: bytes reach the file in the order SQLite wrote
// them, and each is there before SQLite could look for it. SQLite syncs the WAL and publishes
// a commit in the WAL index only after its commit frame's write returned, and that write
// returns only once the whole transaction is in the file; every read of the log (this
// connection's, or a checkpoint on it) writes out what is pending first; other connections read
// only committed frames. A write that fails is reported, and the bytes stay pending: nothing
// later reaches the file, and no sync succeeds, until they are written — a frame SQLite was
// told is written never goes missing behind a later one (a missing frame's place could still
// hold an older generation's frame, which authenticates at the same index).
#include <string.h>
#include "cipher_internal.h"

/// Frames the buffer holds: a one-sample save writes 8, a group commit of 16 saves about 100.
/// 31 frames are 127,720 bytes: the unix VFS writes at most 128 KiB − 1 bytes in one call (it
/// masks the length with 0x1ffff, and a larger write fails as a full disk).
#define WAL_BUFFER_FRAMES 31
#define WAL_BUFFER_BYTES (WAL_BUFFER_FRAMES * WAL_FRAME_BYTES)

static int write_through(cipher_file *file, const void *bytes, int amount, sqlite3_int64 offset) {
    file->wal_file_writes++;
    return file->real->pMethods->xWrite(file->real, bytes, amount, offset);
}

int wal_buffer_flush(cipher_file *file) {
    if (file->wal_pending_length == 0) return SQLITE_OK;
    int rc = write_through(file, file->wal_pending, file->wal_pending_length, file->wal_pending_offset);
    if (rc == SQLITE_OK) file->wal_pending_length = 0;
    return rc;
}

uint8_t *wal_buffer_reserve(cipher_file *file, int amount, sqlite3_int64 offset, int *rc) {
    *rc = SQLITE_OK;
    if (amount > WAL_BUFFER_BYTES) return NULL;
    int contiguous = file->wal_pending_length > 0
        && offset == file->wal_pending_offset + file->wal_pending_length
        && file->wal_pending_length + amount <= WAL_BUFFER_BYTES;
    if (!contiguous) {
        *rc = wal_buffer_flush(file);
        if (*rc != SQLITE_OK) return NULL;
        if (file->wal_pending == NULL) {
            file->wal_pending = sqlite3_malloc(WAL_BUFFER_BYTES);
            if (file->wal_pending == NULL) return NULL;  // unbuffered: the caller writes through
        }
        file->wal_pending_offset = offset;
    }
    return file->wal_pending + file->wal_pending_length;
}

void wal_buffer_extend(cipher_file *file, int amount) { file->wal_pending_length += amount; }

int wal_buffer_write_through(cipher_file *file, const void *bytes, int amount, sqlite3_int64 offset) {
    int rc = wal_buffer_flush(file);
    if (rc != SQLITE_OK) return rc;
    return write_through(file, bytes, amount, offset);
}

void wal_buffer_free(cipher_file *file) {
    sqlite3_free(file->wal_pending);
    file->wal_pending = NULL;
    file->wal_pending_length = 0;
}
