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

/// AES-256-GCM contexts keyed once, re-initialised with a fresh nonce per unit.
typedef struct page_codec {
    EVP_CIPHER_CTX *seal;
    EVP_CIPHER_CTX *open;
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
} cipher_file;

/* key_registry.c */
int key_registry_retain(uint64_t id, derived_keys *out);
void key_registry_release(uint64_t id);

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
