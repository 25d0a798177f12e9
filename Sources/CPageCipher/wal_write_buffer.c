// The WAL's writes, gathered: a transaction's frames go to the file in one write.
//
// Why: SQLite writes each WAL frame as two writes, its 24-byte header and its page, so a
// one-sample save's commit of 8 frames made 16 pwrite calls, each a system call with its own
// file-system bookkeeping (issue 17, Benchmarks/README.md "Session 20"). Here the sealed
// frames of a run of contiguous writes are kept in one buffer and written once: when a commit
// frame completes (the end of a transaction's writes), when the buffer is full, and before
// anything else touches the file — a read, a write elsewhere, a size, a truncation, a sync,
// the close.
//
// Why this changes nothing SQLite can tell: bytes reach the file in the order SQLite wrote
// them, and each is there before SQLite could look for it. SQLite syncs the WAL and publishes
// a commit in the WAL index only after its commit frame's write returned, and that write
// returns only once the whole transaction is in the file; every read of the log (this
// connection's, or a checkpoint on it) writes out what is pending first; other connections read
// only committed frames.
//
// A write that fails is reported and its bytes are forgotten, never written later
// (cipherreview21, finding 1). SQLite was told the write failed — the one whose flush failed,
// and with it the transaction the pending frames belong to — and rolls that transaction back
// (a failed commit, or the pager's error state after a failed spill). Written afterwards, by the
// next read or flush, the frames would lie in the log past the committed ones, commit frame and
// checksum chain included, and a crash before the next commit overwrote them would let recovery
// replay a save its caller was told had failed. A flush that no write asked for (a read, a size,
// a truncation, a sync, the close) reports its failure as an I/O error, never as a full disk:
// the forgotten frames may include ones SQLite still counts (a spill earlier in the transaction),
// and SQLITE_FULL could make SQLite roll back only the statement and keep the transaction
// (sqlite3VdbeHalt), where an I/O error rolls back the whole of it. A write keeps SQLite's code
// (a full disk stays SQLITE_FULL, which healthd reads to start read-only): a failed frame write
// fails the commit or puts the pager in its error state, so the whole transaction is rolled
// back anyway. File controls never flush: SQLite ignores their result (sqlite3OsFileControlHint)
// and none needs the log's bytes in the file.
#include <string.h>
#include "cipher_internal.h"

/// Frames the buffer holds: a one-sample save writes 8, a group commit of 16 saves about 100.
/// 31 frames are 127,720 bytes: the unix VFS writes at most 128 KiB − 1 bytes in one call (it
/// masks the length with 0x1ffff, and a larger write fails as a full disk).
#define WAL_BUFFER_FRAMES 31
#define WAL_BUFFER_BYTES (WAL_BUFFER_FRAMES * WAL_FRAME_BYTES)

static int write_through(cipher_file *file, const void *bytes, int amount, sqlite3_int64 offset) {
    file->wal_file_writes++;
    return cipher_file_write_real(file, bytes, amount, offset);
}

int wal_buffer_flush(cipher_file *file) {
    if (file->wal_pending_length == 0) return SQLITE_OK;
    int rc = write_through(file, file->wal_pending, file->wal_pending_length, file->wal_pending_offset);
    if (rc != SQLITE_OK) {
        // Forgotten (see the top of this file). The frames from the pending offset on never
        // reached the file, so the next ones SQLite writes there are new frames, buffered again.
        uint64_t first = (uint64_t)((file->wal_pending_offset - WAL_HEADER_BYTES) / WAL_FRAME_BYTES);
        if (file->wal_pages_end > first) file->wal_pages_end = first;
    }
    file->wal_pending_length = 0;
    return rc;
}

int wal_buffer_flush_unasked(cipher_file *file) {
    int rc = wal_buffer_flush(file);
    return (rc & 0xFF) == SQLITE_FULL ? SQLITE_IOERR_WRITE : rc;
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
