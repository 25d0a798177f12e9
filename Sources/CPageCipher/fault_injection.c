// Writes to the real files, and the test-only failures of them.
//
// Why: the failure paths of the write buffer (wal_write_buffer.c) and of the checkpoints
// (HealthStore's WALCheckpointer) decide what survives a crash after a save that failed
// (cipherreview21, findings 1 and 2), and a full disk cannot be made on demand in a test
// without root. So every write of this VFS to a real file goes through here, and a test can
// arm one open file — a connection's database file or WAL, found through the connection — to
// fail its next writes exactly as the unix VFS reports ENOSPC (SQLITE_FULL), before anything
// reaches the disk. The counter lives in the open file and is zero unless a test set it; it is
// read and changed on the connection's thread only (SQLite serializes a connection's I/O).
#include "cipher_internal.h"

int cipher_file_write_real(cipher_file *file, const void *bytes, int amount, sqlite3_int64 offset) {
    if (file->failing_writes > 0) {
        file->failing_writes--;
        return SQLITE_FULL;
    }
    return file->real->pMethods->xWrite(file->real, bytes, amount, offset);
}

int ohk_cipher_fail_next_writes_of(void *db, int kind, int count) {
    cipher_file *file = cipher_file_of_connection(db, (file_kind)kind);
    if (file == NULL) return 0;
    file->failing_writes = count > 0 ? count : 0;
    return 1;
}
