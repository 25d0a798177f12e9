// The main database file: page N lives at offset (N-1)*4096, encrypted whole,
// including page 1 and its 100-byte header. SQLite's reads of parts of a page (the
// header at open, the change counter) are served from the decrypted page.
#include <string.h>
#include "cipher_internal.h"

/// Reads and decrypts page `page_number` into `out` (4096 bytes).
static int read_page(cipher_file *file, uint8_t *out, sqlite3_int64 page_number) {
    sqlite3_int64 offset = (page_number - 1) * PAGE_SIZE_BYTES;
    uint8_t *raw = file->scratch;
    int rc = file->real->pMethods->xRead(file->real, raw, PAGE_SIZE_BYTES, offset);
    if (rc == SQLITE_IOERR_SHORT_READ) {
        sqlite3_int64 size = 0;
        int size_rc = file->real->pMethods->xFileSize(file->real, &size);
        if (size_rc != SQLITE_OK) return size_rc;
        if (size == 0) {
            // A new, empty database: SQLite's contract is zeros plus SHORT_READ,
            // which it takes for a database not yet written.
            memset(out, 0, PAGE_SIZE_BYTES);
            return SQLITE_IOERR_SHORT_READ;
        }
        if (size <= offset) {
            // Wholly past the end of a file that has pages: SQLite reads only pages
            // below the database's size (from page 1's header or the WAL's commit
            // frame), and every one of those was written — to the WAL, where it is
            // read, or by a checkpoint, which sizes the file to the database. A page
            // missing from the file is a cut file (a partial copy or restore), not
            // an unwritten page: read as zeros it would end a large value with zeros.
            failure_report(file, page_number, 0);
            memset(out, 0, PAGE_SIZE_BYTES);
            return SQLITE_IOERR_DATA;
        }
        // A partial page can never be decrypted: the file was cut.
        failure_report(file, page_number, 0);
        memset(out, 0, PAGE_SIZE_BYTES);
        return SQLITE_IOERR_DATA;
    }
    if (rc != SQLITE_OK) return rc;
    if (page_cache_lookup(file->key_id, FILE_KIND_DATABASE, (uint64_t)page_number, raw, out)) return SQLITE_OK;
    if (!page_codec_open(&file->codec, FILE_KIND_DATABASE, (uint64_t)page_number,
                         raw, out, PAGE_SIZE_BYTES)) {
        failure_report(file, page_number, 0);
        return SQLITE_IOERR_DATA;
    }
    page_cache_store(file->key_id, FILE_KIND_DATABASE, (uint64_t)page_number, raw, out);
    return SQLITE_OK;
}

int database_file_read(cipher_file *file, void *out, int amount, sqlite3_int64 offset) {
    sqlite3_int64 first_page = offset / PAGE_SIZE_BYTES + 1;
    if (amount == PAGE_SIZE_BYTES && offset % PAGE_SIZE_BYTES == 0) {
        return read_page(file, out, first_page);
    }
    sqlite3_int64 last_page = (offset + amount - 1) / PAGE_SIZE_BYTES + 1;
    if (amount <= 0 || first_page != last_page) {
        return failure_report_invalid_shape(file, "a database read", amount, offset, SQLITE_IOERR_READ);
    }
    uint8_t *page = file->scratch + TEMP_STORED_BLOCK_BYTES;
    int rc = read_page(file, page, first_page);
    if (rc == SQLITE_OK || rc == SQLITE_IOERR_SHORT_READ) {
        memcpy(out, page + offset % PAGE_SIZE_BYTES, (size_t)amount);
    }
    return rc;
}

/// Page 1 carries the database header: refuse a layout the cipher cannot serve
/// (another page size, or a reserve that leaves no room for nonce and tag).
static int header_has_cipher_layout(const uint8_t *page1) {
    int page_size = (page1[16] << 8) | page1[17];
    return page_size == PAGE_SIZE_BYTES && page1[20] == RESERVED_BYTES;
}

int database_file_write(cipher_file *file, const void *in, int amount, sqlite3_int64 offset) {
    const uint8_t *page = in;
    if (amount != PAGE_SIZE_BYTES || offset % PAGE_SIZE_BYTES != 0) {
        return failure_report_invalid_shape(file, "a database write (page size must be 4096)",
                                            amount, offset, SQLITE_IOERR_WRITE);
    }
    if (offset == 0 && !header_has_cipher_layout(page)) {
        return failure_report_invalid_shape(file, "a header without 4096-byte pages and 28 reserved bytes",
                                            amount, offset, SQLITE_IOERR_WRITE);
    }
    if (!page_reserved_area_is_clear(page)) {
        return failure_report_invalid_shape(file, "a page whose reserved bytes are in use",
                                            amount, offset, SQLITE_IOERR_WRITE);
    }
    uint64_t page_number = (uint64_t)(offset / PAGE_SIZE_BYTES) + 1;
    if (!page_codec_seal(&file->codec, FILE_KIND_DATABASE, page_number, page, file->scratch, PAGE_SIZE_BYTES)) {
        return SQLITE_IOERR_WRITE;
    }
    return cipher_file_write_real(file, file->scratch, PAGE_SIZE_BYTES, offset);
}
