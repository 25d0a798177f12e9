// The write-ahead log. Layout (SQLite's): a 32-byte header, then frames of a
// 24-byte frame header and one page. Frame bodies are sealed like database pages,
// bound to the frame's index. Frame headers stay readable, because SQLite needs
// page numbers and salts to rebuild its index, but their two checksum words are
// masked: SQLite computes them over the plaintext page, so left in clear they
// would let anyone test guesses about a page's content.
#include <string.h>
#include <openssl/crypto.h>
#include "cipher_internal.h"

/// XORs the frame header's checksum words (bytes 16..23) with a keystream that
/// depends on the frame's salts (bytes 8..15) and its index: applying it twice
/// restores the original.
static int toggle_checksum_mask(cipher_file *file, uint8_t *frame_header, uint64_t frame_index) {
    uint8_t block[16], mask[32];
    int produced = 0;
    memcpy(block, frame_header + 8, 8);
    for (int i = 0; i < 8; i++) block[8 + i] = (uint8_t)(frame_index >> (56 - 8 * i));
    if (EVP_EncryptUpdate(file->wal_mask, mask, &produced, block, 16) != 1 || produced != 16) return 0;
    for (int i = 0; i < WAL_CHECKSUM_BYTES; i++) frame_header[WAL_CHECKSUM_OFFSET + i] ^= mask[i];
    return 1;
}

static uint32_t read_big_endian_u32(const uint8_t *bytes) {
    return ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) | bytes[3];
}

/// Seals one frame write of SQLite's — a frame header, a page, or both — into the file's write
/// buffer (wal_write_buffer.c), or through the scratch buffer when it cannot be buffered. Only
/// new frames are buffered, each header with the page after it; a frame that ends a transaction
/// (its header's commit size is not zero) sends the buffer to the file once its page is in it:
/// SQLite syncs and publishes the commit only after this returns. What SQLite writes again
/// within a transaction — a page over its own earlier frame, headers whose checksums it
/// recomputes (`walRewriteChecksums`) — goes to the file at once, after what is buffered.
int wal_file_write(cipher_file *file, const void *in, int amount, sqlite3_int64 offset) {
    const uint8_t *bytes = in;
    if (offset < WAL_HEADER_BYTES) {
        if (offset != 0 || amount != WAL_HEADER_BYTES || read_big_endian_u32(bytes + 8) != PAGE_SIZE_BYTES) {
            return failure_report_invalid_shape(file, "a WAL header write", amount, offset, SQLITE_IOERR_WRITE);
        }
        file->wal_pages_end = 0;  // a new generation of the log starts at frame 0
        return wal_buffer_write_through(file, in, amount, offset);
    }
    sqlite3_int64 relative = offset - WAL_HEADER_BYTES;
    uint64_t frame = (uint64_t)(relative / WAL_FRAME_BYTES);
    sqlite3_int64 within = relative % WAL_FRAME_BYTES;
    int has_header = within == 0 && (amount == WAL_FRAME_HEADER_BYTES || amount == WAL_FRAME_BYTES);
    if (!has_header && !(within == WAL_FRAME_HEADER_BYTES && amount == PAGE_SIZE_BYTES)) {
        return failure_report_invalid_shape(file, "a WAL write", amount, offset, SQLITE_IOERR_WRITE);
    }
    int has_page = amount != WAL_FRAME_HEADER_BYTES;
    if (has_page && !page_reserved_area_is_clear(bytes + (has_header ? WAL_FRAME_HEADER_BYTES : 0))) {
        return failure_report_invalid_shape(file, "a WAL page whose reserved bytes are in use",
                                            amount, offset, SQLITE_IOERR_WRITE);
    }
    int new_frame = has_header ? frame >= file->wal_pages_end : file->wal_last_header_frame == frame;
    int commits = has_header ? read_big_endian_u32(bytes + 4) != 0 : file->wal_last_header_commits;
    if (has_header) {
        file->wal_last_header_frame = frame;
        file->wal_last_header_commits = commits;
    }
    int rc = SQLITE_OK;
    uint8_t *buffered = new_frame ? wal_buffer_reserve(file, amount, offset, &rc) : NULL;
    if (buffered == NULL && rc != SQLITE_OK) return rc;
    uint8_t *out = buffered != NULL ? buffered : file->scratch;
    uint8_t *next = out;
    if (has_header) {
        memcpy(next, bytes, WAL_FRAME_HEADER_BYTES);
        if (!toggle_checksum_mask(file, next, frame)) return SQLITE_IOERR_WRITE;
        bytes += WAL_FRAME_HEADER_BYTES;
        next += WAL_FRAME_HEADER_BYTES;
    }
    if (has_page) {
        if (!page_codec_seal(&file->codec, FILE_KIND_WAL, frame, bytes, next, PAGE_SIZE_BYTES)) return SQLITE_IOERR_WRITE;
        file->wal_pages_sealed++;
        if (frame >= file->wal_pages_end) file->wal_pages_end = frame + 1;
    }
    if (buffered == NULL) return wal_buffer_write_through(file, out, amount, offset);
    wal_buffer_extend(file, amount);
    return has_page && commits ? wal_buffer_flush(file) : SQLITE_OK;
}

static uint32_t read_little_endian_u32(const uint8_t *bytes) {
    return ((uint32_t)bytes[3] << 24) | ((uint32_t)bytes[2] << 16) | ((uint32_t)bytes[1] << 8) | bytes[0];
}

/// SQLite's WAL checksum (walChecksumBytes) over `length` bytes, continuing `sum`: pairs of
/// 32-bit words, big-endian when the WAL header's magic says so, else little-endian.
static void wal_checksum(int big_endian, const uint8_t *data, size_t length, uint32_t sum[2]) {
    for (size_t i = 0; i + 8 <= length; i += 8) {
        uint32_t first = big_endian ? read_big_endian_u32(data + i) : read_little_endian_u32(data + i);
        uint32_t second = big_endian ? read_big_endian_u32(data + i + 4) : read_little_endian_u32(data + i + 4);
        sum[0] += first + sum[1];
        sum[1] += second + sum[0];
    }
}

/// Whether frame `failed` (its header, unmasked, in `failed_header`), which failed
/// authentication during recovery, is committed data rather than a torn write. The writer
/// commits with synchronous=FULL: a transaction's frames are on disk before the next
/// transaction writes any, so a torn frame can belong only to the last transaction in the log.
/// If, after `failed`, the frames continue SQLite's checksum chain from the failed frame's own
/// stored checksum (so they are this log's generation, written after it, not stale frames of an
/// earlier crash), each authenticates, the chain passes a commit frame, and at least one frame of
/// the next transaction follows, then the failed frame's transaction was committed and a later
/// one began: the frame was damaged after it was written. Only called on a failure, so its cost
/// (reading and decrypting the frames after the failed one) is paid by damaged logs alone.
static int later_transaction_follows(cipher_file *file, uint64_t failed, const uint8_t *failed_header) {
    uint8_t wal_header[WAL_HEADER_BYTES];
    sqlite3_int64 size = 0;
    if (file->real->pMethods->xRead(file->real, wal_header, WAL_HEADER_BYTES, 0) != SQLITE_OK) return 0;
    if (file->real->pMethods->xFileSize(file->real, &size) != SQLITE_OK) return 0;
    uint8_t *buffer = sqlite3_malloc(WAL_FRAME_BYTES + PAGE_SIZE_BYTES);
    if (buffer == NULL) return 0;
    uint8_t *raw = buffer, *plain = buffer + WAL_FRAME_BYTES;
    int big_endian = wal_header[3] & 1;
    uint32_t sum[2] = { read_big_endian_u32(failed_header + WAL_CHECKSUM_OFFSET),
                        read_big_endian_u32(failed_header + WAL_CHECKSUM_OFFSET + 4) };
    int committed = read_big_endian_u32(failed_header + 4) != 0;
    int proven = 0;
    for (uint64_t frame = failed + 1;; frame++) {
        sqlite3_int64 offset = WAL_HEADER_BYTES + (sqlite3_int64)frame * WAL_FRAME_BYTES;
        if (offset + WAL_FRAME_BYTES > size) break;
        if (file->real->pMethods->xRead(file->real, raw, WAL_FRAME_BYTES, offset) != SQLITE_OK) break;
        if (!toggle_checksum_mask(file, raw, frame)) break;
        if (memcmp(raw + 8, wal_header + 16, 8) != 0) break;  // another generation's salts
        if (!page_codec_open(&file->codec, FILE_KIND_WAL, frame, raw + WAL_FRAME_HEADER_BYTES, plain, PAGE_SIZE_BYTES)) break;
        wal_checksum(big_endian, raw, 8, sum);
        wal_checksum(big_endian, plain, PAGE_SIZE_BYTES, sum);
        if (sum[0] != read_big_endian_u32(raw + WAL_CHECKSUM_OFFSET)
            || sum[1] != read_big_endian_u32(raw + WAL_CHECKSUM_OFFSET + 4)) break;
        if (committed) {  // a frame of the transaction after the failed frame's
            proven = 1;
            break;
        }
        committed = read_big_endian_u32(raw + 4) != 0;
    }
    OPENSSL_cleanse(plain, PAGE_SIZE_BYTES);
    sqlite3_free(buffer);
    return proven;
}

/// A read of header and body together is SQLite rebuilding its WAL index after a
/// crash. A frame that fails authentication there is what a torn write looks like,
/// so instead of failing the open it is made to fail SQLite's own salt check,
/// which ends the log before that frame, exactly as SQLite treats a torn frame in
/// a plain database — unless a later transaction follows it in the log
/// (`later_transaction_follows`): then it is damage to committed data, and the
/// read fails (SQLITE_IOERR_DATA, reported with the frame) instead of silently
/// dropping that transaction and every one after it.
static int read_whole_frame(cipher_file *file, uint8_t *out, uint64_t frame, sqlite3_int64 offset) {
    uint8_t *raw = file->scratch;
    int rc = file->real->pMethods->xRead(file->real, raw, WAL_FRAME_BYTES, offset);
    if (rc != SQLITE_OK) {
        memcpy(out, raw, WAL_FRAME_BYTES);
        return rc;
    }
    memcpy(out, raw, WAL_FRAME_HEADER_BYTES);
    if (!toggle_checksum_mask(file, out, frame)) return SQLITE_IOERR_READ;
    if (!page_codec_open(&file->codec, FILE_KIND_WAL, frame, raw + WAL_FRAME_HEADER_BYTES,
                         out + WAL_FRAME_HEADER_BYTES, PAGE_SIZE_BYTES)) {
        if (later_transaction_follows(file, frame, out)) {
            failure_report(file, (int64_t)frame, 0);
            memset(out, 0, WAL_FRAME_BYTES);
            return SQLITE_IOERR_DATA;
        }
        failure_report(file, (int64_t)frame, 1);
        for (int i = 8; i < 16; i++) out[i] ^= 0xFF;
    }
    return SQLITE_OK;
}

/// A body-only read is SQLite fetching a page the WAL index says is committed:
/// any failure here is corruption.
static int read_frame_body(cipher_file *file, uint8_t *out, uint64_t frame, sqlite3_int64 offset) {
    uint8_t *raw = file->scratch;
    int rc = file->real->pMethods->xRead(file->real, raw, PAGE_SIZE_BYTES, offset);
    if (rc == SQLITE_IOERR_SHORT_READ) rc = SQLITE_IOERR_DATA;
    if (rc == SQLITE_OK && page_cache_lookup(file->key_id, FILE_KIND_WAL, frame, raw, out)) return SQLITE_OK;
    if (rc == SQLITE_OK && page_codec_open(&file->codec, FILE_KIND_WAL, frame, raw, out, PAGE_SIZE_BYTES)) {
        page_cache_store(file->key_id, FILE_KIND_WAL, frame, raw, out);
        return SQLITE_OK;
    }
    memset(out, 0, PAGE_SIZE_BYTES);
    if (rc == SQLITE_OK || rc == SQLITE_IOERR_DATA) {
        failure_report(file, (int64_t)frame, 0);
        return SQLITE_IOERR_DATA;
    }
    return rc;
}

/// The two checksum words of one frame header, alone. SQLite reads them when a
/// transaction larger than its page cache has overwritten one of its own frames in
/// place: at commit it recomputes the checksums from that frame on, starting from the
/// previous frame's (walRewriteChecksums). They are masked with the frame's salts, so
/// the whole header is read to unmask them.
static int read_frame_checksums(cipher_file *file, uint8_t *out, uint64_t frame, sqlite3_int64 header_offset) {
    uint8_t header[WAL_FRAME_HEADER_BYTES];
    int rc = file->real->pMethods->xRead(file->real, header, WAL_FRAME_HEADER_BYTES, header_offset);
    if (rc == SQLITE_OK && !toggle_checksum_mask(file, header, frame)) rc = SQLITE_IOERR_READ;
    if (rc != SQLITE_OK) {
        memset(out, 0, WAL_CHECKSUM_BYTES);
        return rc == SQLITE_IOERR_SHORT_READ ? SQLITE_IOERR_DATA : rc;
    }
    memcpy(out, header + WAL_CHECKSUM_OFFSET, WAL_CHECKSUM_BYTES);
    return SQLITE_OK;
}

int wal_file_read(cipher_file *file, void *out, int amount, sqlite3_int64 offset) {
    // Whatever is buffered is in the file before anything is read from it.
    int flushed = wal_buffer_flush_unasked(file);
    if (flushed != SQLITE_OK) return flushed;
    if (offset + amount <= WAL_HEADER_BYTES) {
        return file->real->pMethods->xRead(file->real, out, amount, offset);
    }
    sqlite3_int64 relative = offset - WAL_HEADER_BYTES;
    uint64_t frame = (uint64_t)(relative / WAL_FRAME_BYTES);
    sqlite3_int64 within = relative % WAL_FRAME_BYTES;
    if (relative >= 0 && within == 0 && amount == WAL_FRAME_BYTES) {
        return read_whole_frame(file, out, frame, offset);
    }
    if (relative >= 0 && within == WAL_FRAME_HEADER_BYTES && amount == PAGE_SIZE_BYTES) {
        return read_frame_body(file, out, frame, offset);
    }
    if (relative >= 0 && within == 0 && amount == WAL_FRAME_HEADER_BYTES) {
        int rc = file->real->pMethods->xRead(file->real, out, amount, offset);
        if (rc == SQLITE_OK && !toggle_checksum_mask(file, out, frame)) rc = SQLITE_IOERR_READ;
        return rc;
    }
    if (relative >= 0 && within == WAL_CHECKSUM_OFFSET && amount == WAL_CHECKSUM_BYTES) {
        return read_frame_checksums(file, out, frame, offset - within);
    }
    return failure_report_invalid_shape(file, "a WAL read", amount, offset, SQLITE_IOERR_READ);
}
