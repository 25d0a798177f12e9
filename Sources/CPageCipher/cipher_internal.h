// Internal declarations shared by the cipher VFS's source files.
#ifndef CPAGECIPHER_INTERNAL_H
#define CPAGECIPHER_INTERNAL_H

#include <sqlite3.h>
#include <openssl/evp.h>
#include "CPageCipher.h"

#define PAGE_SIZE_BYTES OHK_CIPHER_PAGE_SIZE
#define RESERVED_BYTES OHK_CIPHER_RESERVED_BYTES
#define NONCE_BYTES 12
#define TAG_BYTES 16
/// Bytes of a page that are encrypted; the rest hold nonce and tag.
#define SEALED_BYTES (PAGE_SIZE_BYTES - RESERVED_BYTES)
#define WAL_HEADER_BYTES 32
#define WAL_FRAME_HEADER_BYTES 24
#define WAL_FRAME_BYTES (WAL_FRAME_HEADER_BYTES + PAGE_SIZE_BYTES)
/// Where a frame header's two checksum words are, and their size.
#define WAL_CHECKSUM_OFFSET 16
#define WAL_CHECKSUM_BYTES 8
/// Temporary files are stored as blocks of this many plaintext bytes, each
/// followed by its nonce and tag.
#define TEMP_BLOCK_BYTES 4096
#define TEMP_STORED_BLOCK_BYTES (TEMP_BLOCK_BYTES + NONCE_BYTES + TAG_BYTES)

/// Which file an encrypted unit belongs to; bound into every page's associated
/// data so a page cannot be moved from one kind of file to another.
typedef enum {
    FILE_KIND_DATABASE = 1,
    FILE_KIND_WAL = 2,
    FILE_KIND_JOURNAL = 3,
    FILE_KIND_TEMP = 4,
} file_kind;

/// Subkeys derived from one data key.
typedef struct derived_keys {
    uint8_t page_key[OHK_CIPHER_KEY_BYTES];
    uint8_t wal_mask_key[OHK_CIPHER_KEY_BYTES];
} derived_keys;

/// Nonces drawn from the CSPRNG per batch (nonce_batch.c).
#define NONCE_BATCH_COUNT 64
/// A batch's nonces, in a memory page of their own that the kernel zeroes in a forked child
/// (MADV_WIPEONFORK): a zeroed batch has none left.
typedef struct nonce_batch_page {
    uint8_t bytes[NONCE_BATCH_COUNT * NONCE_BYTES];
    int left;              /* nonces not yet handed out, at the front of `bytes` */
    uint64_t generation;   /* the fork generation `bytes` were drawn in */
} nonce_batch_page;
typedef struct nonce_batch {
    nonce_batch_page *page;  /* NULL until the first nonce, and when no page could be wiped on fork */
    int unbatched;           /* no such page: one CSPRNG call per nonce */
    uint64_t drawn;          /* CSPRNG calls for nonces, for ohk_cipher_wal_statistics_of */
} nonce_batch;

/// AES-256-GCM contexts keyed once, re-initialised with a fresh nonce per unit.
typedef struct page_codec {
    EVP_CIPHER_CTX *seal;
    EVP_CIPHER_CTX *open;
    nonce_batch nonces;
} page_codec;

/// One open file of the cipher VFS. `real` is the unix VFS's file, allocated
/// in the same block right after this struct.
typedef struct cipher_file {
    sqlite3_file base;
    sqlite3_file *real;
    file_kind kind;
    uint64_t key_id;            /* 0 for temporary files (private random key) */
    const char *path;           /* valid until xClose, per the VFS contract */
    page_codec codec;
    EVP_CIPHER_CTX *wal_mask;   /* WAL only: masks frame-header checksums */
    uint8_t *scratch;           /* 2 * TEMP_STORED_BLOCK_BYTES bytes */
    sqlite3_int64 logical_size; /* temporary files only */
    /* WAL only (wal_write_buffer.c): sealed frames not yet written, from wal_pending_offset */
    uint8_t *wal_pending;
    sqlite3_int64 wal_pending_offset;
    int wal_pending_length;
    /* WAL only: the frame whose header was written last, and whether it ends a transaction */
    uint64_t wal_last_header_frame;
    int wal_last_header_commits;
    /* WAL only: one past the last frame whose page this handle wrote since the log's header */
    uint64_t wal_pages_end;
    /* Writes to the real file still to fail as a full disk: 0 unless a test armed it
       (ohk_cipher_fail_next_writes_of) */
    int failing_writes;
    /* WAL only, for ohk_cipher_wal_statistics_of */
    uint64_t wal_file_writes;
    uint64_t wal_pages_sealed;
} cipher_file;

/* key_registry.c */
int key_registry_retain(uint64_t id, derived_keys *out);
void key_registry_release(uint64_t id);

/* nonce_batch.c */
void nonce_batch_init(nonce_batch *batch);
/// Copies the next unused random nonce into `nonce`. Returns 1, or 0 if the CSPRNG failed.
int nonce_batch_take(nonce_batch *batch, uint8_t nonce[NONCE_BYTES]);
void nonce_batch_free(nonce_batch *batch);
uint64_t nonce_batches_drawn(const nonce_batch *batch);

/* page_codec.c */
int page_codec_init(page_codec *codec, const uint8_t key[OHK_CIPHER_KEY_BYTES]);
void page_codec_free(page_codec *codec);
/// Encrypts `length - 28` bytes of `plain` into `out`, appending nonce and tag
/// in the last 28 bytes. Returns 1 on success.
int page_codec_seal(page_codec *codec, file_kind kind, uint64_t unit,
                    const uint8_t *plain, uint8_t *out, int length);
/// Verifies and decrypts a unit sealed by page_codec_seal; the last 28 bytes of
/// `out` are zeroed. Returns 1 if authentic, 0 otherwise.
int page_codec_open(page_codec *codec, file_kind kind, uint64_t unit,
                    const uint8_t *sealed, uint8_t *out, int length);

/* page_cache.c: decrypted pages, served only for byte-identical sealed bytes read at the
   same place under the same key (see the file's comment) */
/// Copies the cached plaintext of `sealed` (a whole page just read at `unit`) into `out`
/// and returns 1, or returns 0 and leaves `out` alone.
int page_cache_lookup(uint64_t key_id, file_kind kind, uint64_t unit, const uint8_t *sealed, uint8_t *out);
/// Remembers `plain` as the authenticated decryption of `sealed` at `unit`.
void page_cache_store(uint64_t key_id, file_kind kind, uint64_t unit, const uint8_t *sealed, const uint8_t *plain);
/// Cleanses every entry made under `key_id` (its last holder let go).
void page_cache_forget_key(uint64_t key_id);

/* wal_write_buffer.c: contiguous WAL writes gathered into one */
/// Where the next `amount` bytes for `offset` go in the file's buffer, flushing it first when
/// they do not continue it; NULL when they cannot be buffered (then `*rc` says why, SQLITE_OK
/// meaning "write them through").
uint8_t *wal_buffer_reserve(cipher_file *file, int amount, sqlite3_int64 offset, int *rc);
/// Counts `amount` bytes placed where `wal_buffer_reserve` said as buffered.
void wal_buffer_extend(cipher_file *file, int amount);
/// Writes the buffered bytes to the file, for a write: SQLITE_OK, or the write's error. Nothing
/// is pending afterwards either way: bytes that failed to reach the file are forgotten.
int wal_buffer_flush(cipher_file *file);
/// wal_buffer_flush for an operation other than a write (a read, a size, a truncation, a sync,
/// the close): a failure is an I/O error (SQLITE_IOERR_WRITE), never SQLITE_FULL.
int wal_buffer_flush_unasked(cipher_file *file);
/// Writes `bytes` straight to the file, after what is buffered.
int wal_buffer_write_through(cipher_file *file, const void *bytes, int amount, sqlite3_int64 offset);
void wal_buffer_free(cipher_file *file);

/* fault_injection.c: every write of the cipher VFS to a real file goes through here */
/// Writes to `file`'s real file, unless a test armed it to fail (then SQLITE_FULL).
int cipher_file_write_real(cipher_file *file, const void *bytes, int amount, sqlite3_int64 offset);

/* cipher_vfs.c */
/// The cipher file behind connection `db`'s main database (SQLITE_FCNTL_FILE_POINTER) or its
/// WAL (SQLITE_FCNTL_JOURNAL_POINTER, when of kind WAL); NULL when it is not one of this VFS's.
cipher_file *cipher_file_of_connection(void *db, file_kind kind);

/* failure_report.c */
void failure_report(const cipher_file *file, int64_t unit, int recovered);
int failure_report_invalid_shape(const cipher_file *file, const char *what,
                                 int amount, sqlite3_int64 offset, int rc);

/* database_file.c, wal_file.c, journal_file.c, temp_file.c */
int database_file_read(cipher_file *file, void *out, int amount, sqlite3_int64 offset);
int database_file_write(cipher_file *file, const void *in, int amount, sqlite3_int64 offset);
int wal_file_read(cipher_file *file, void *out, int amount, sqlite3_int64 offset);
int wal_file_write(cipher_file *file, const void *in, int amount, sqlite3_int64 offset);
int journal_file_read(cipher_file *file, void *out, int amount, sqlite3_int64 offset);
int journal_file_write(cipher_file *file, const void *in, int amount, sqlite3_int64 offset);
int temp_file_read(cipher_file *file, void *out, int amount, sqlite3_int64 offset);
int temp_file_write(cipher_file *file, const void *in, int amount, sqlite3_int64 offset);
int temp_file_truncate(cipher_file *file, sqlite3_int64 size);

/// Returns 1 if the reserved tail of a plaintext page is all zero: SQLite never
/// uses it once the reserve is set, and the cipher relies on that.
int page_reserved_area_is_clear(const uint8_t *page);

#endif
