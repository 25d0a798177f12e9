// The rollback journal. SQLite writes a header padded to the sector size at
// sector-aligned offsets, and page records as a 4-byte page number, the page image
// and a 4-byte checksum. Page images are sealed in their own reserved bytes, bound
// to their byte offset. A page image always sits 4 bytes past a record start and so
// never on a 512-byte boundary, while headers always do: that tells the two apart.
// The store runs in WAL mode; the journal only carries page images if a connection
// is switched to a rollback journal mode.
#include "cipher_internal.h"

static int is_page_record(int amount, sqlite3_int64 offset) {
    return amount == PAGE_SIZE_BYTES && offset % 512 != 0;
}

int journal_file_read(cipher_file *file, void *out, int amount, sqlite3_int64 offset) {
    if (!is_page_record(amount, offset)) {
        return file->real->pMethods->xRead(file->real, out, amount, offset);
    }
    int rc = file->real->pMethods->xRead(file->real, file->scratch, amount, offset);
    if (rc != SQLITE_OK) return rc;
    if (!page_codec_open(&file->codec, FILE_KIND_JOURNAL, (uint64_t)offset, file->scratch, out, amount)) {
        failure_report(file, offset, 0);
        return SQLITE_IOERR_DATA;
    }
    return SQLITE_OK;
}

int journal_file_write(cipher_file *file, const void *in, int amount, sqlite3_int64 offset) {
    if (!is_page_record(amount, offset)) {
        return cipher_file_write_real(file, in, amount, offset);
    }
    if (!page_reserved_area_is_clear(in)) {
        return failure_report_invalid_shape(file, "a journal page whose reserved bytes are in use",
                                            amount, offset, SQLITE_IOERR_WRITE);
    }
    if (!page_codec_seal(&file->codec, FILE_KIND_JOURNAL, (uint64_t)offset, in, file->scratch, amount)) {
        return SQLITE_IOERR_WRITE;
    }
    return cipher_file_write_real(file, file->scratch, amount, offset);
}
