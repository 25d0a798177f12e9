// Reporting of authentication failures and refused I/O shapes. Messages go to
// SQLite's error log (sqlite3_log) and, for authentication failures, to a
// per-thread record the Swift layer turns into a typed error. No page content and
// no key material is ever part of a message.
#include <stdio.h>
#include <string.h>
#include "cipher_internal.h"

static _Thread_local ohk_cipher_failure last_failure;
static _Thread_local int has_last_failure;

static const char *kind_name(file_kind kind) {
    switch (kind) {
    case FILE_KIND_DATABASE: return "database page";
    case FILE_KIND_WAL: return "WAL frame";
    case FILE_KIND_JOURNAL: return "journal record at byte";
    case FILE_KIND_TEMP: return "temporary-file block";
    }
    return "unit";
}

void failure_report(const cipher_file *file, int64_t unit, int recovered) {
    const char *path = file->path != NULL ? file->path : "";
    if (recovered) {
        // A frame met while SQLite rebuilds the WAL index after a crash: a torn
        // write looks exactly like this, so SQLite ends the log before it.
        sqlite3_log(SQLITE_WARNING,
                    "ohk-cipher: %s %lld of %s failed authentication during WAL recovery; "
                    "the log is treated as ending before it",
                    kind_name(file->kind), (long long)unit, path);
        return;
    }
    sqlite3_log(SQLITE_IOERR_DATA,
                "ohk-cipher: %s %lld of %s failed authentication "
                "(the file was modified or the data key is wrong)",
                kind_name(file->kind), (long long)unit, path);
    last_failure.file_kind = (int)file->kind;
    last_failure.unit = unit;
    snprintf(last_failure.path, sizeof last_failure.path, "%s", path);
    has_last_failure = 1;
}

int failure_report_invalid_shape(const cipher_file *file, const char *what,
                                 int amount, sqlite3_int64 offset, int rc) {
    sqlite3_log(rc, "ohk-cipher: refused %s of %d bytes at offset %lld in %s",
                what, amount, (long long)offset, file->path != NULL ? file->path : "a temporary file");
    return rc;
}

int ohk_cipher_take_last_failure(ohk_cipher_failure *out) {
    if (!has_last_failure) return 0;
    *out = last_failure;
    has_last_failure = 0;
    memset(&last_failure, 0, sizeof last_failure);
    return 1;
}
