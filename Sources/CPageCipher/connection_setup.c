// Per-connection checks run before a connection is used: it must really go through
// the cipher VFS (a plain path, or a build of SQLite without URI support, would
// otherwise silently write plaintext), and its pages must have the cipher's layout.
#include <stdlib.h>
#include "cipher_internal.h"
#include "cipher_file_control.h"

static int read_integer(sqlite3 *db, const char *sql, int *out) {
    sqlite3_stmt *statement = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &statement, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(statement);
        if (rc == SQLITE_ROW) {
            *out = sqlite3_column_int(statement, 0);
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(statement);
    return rc;
}

int ohk_cipher_connection_prepare(void *connection, const char **message) {
    sqlite3 *db = connection;
    const char *ignored;
    if (message == NULL) message = &ignored;
    *message = NULL;

    int kind = 0;
    if (sqlite3_file_control(db, "main", OHK_FCNTL_CIPHER_FILE_KIND, &kind) != SQLITE_OK
        || kind != FILE_KIND_DATABASE) {
        *message = "the database file is not opened through the cipher VFS "
                   "(SQLite must accept URI file names)";
        return SQLITE_MISUSE;
    }
    // Both settings only take effect for a database that has no page yet; for an
    // existing one they are ignored and the checks below see its real layout.
    int rc = sqlite3_exec(db, "PRAGMA page_size = 4096", NULL, NULL, NULL);
    if (rc != SQLITE_OK) return rc;
    int reserve = RESERVED_BYTES;
    sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve);
    reserve = -1;
    sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve);

    int page_size = 0;
    rc = read_integer(db, "PRAGMA page_size", &page_size);
    if (rc != SQLITE_OK) return rc;
    if (page_size != PAGE_SIZE_BYTES || reserve != RESERVED_BYTES) {
        *message = "the database does not have the cipher's layout (4096-byte pages, 28 reserved bytes)";
        return SQLITE_CORRUPT;
    }
    // Temporary files are encrypted too, but keeping them on disk (not in memory)
    // bounds memory use for large sorts and VACUUM.
    return sqlite3_exec(db, "PRAGMA temp_store = FILE", NULL, NULL, NULL);
}
