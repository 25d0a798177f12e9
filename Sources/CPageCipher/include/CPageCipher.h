// CPageCipher: an SQLite VFS shim that encrypts every page of the main database,
// the WAL, the rollback journal and every temporary file with AES-256-GCM (OpenSSL).
// See README.md beside this folder for the page format and the threat model.
//
// This header deliberately exposes no SQLite or OpenSSL types, so Swift callers need
// neither module: connections are passed as opaque `sqlite3 *` pointers.
#ifndef CPAGECIPHER_H
#define CPAGECIPHER_H

#include <stddef.h>
#include <stdint.h>

/// Name under which the VFS is registered (never as the default VFS).
#define OHK_CIPHER_VFS_NAME "ohk-cipher"
/// URI parameter that names the registered key a database file is opened with.
#define OHK_CIPHER_KEY_PARAMETER "ohk_key"
/// The only page size the cipher accepts.
#define OHK_CIPHER_PAGE_SIZE 4096
/// Bytes at the end of each page that hold the nonce (12) and the GCM tag (16).
#define OHK_CIPHER_RESERVED_BYTES 28
/// Length of a data key and of every key-encryption key.
#define OHK_CIPHER_KEY_BYTES 32
/// Length of the nonce and tag produced by ohk_aead_seal.
#define OHK_AEAD_NONCE_BYTES 12
#define OHK_AEAD_TAG_BYTES 16

/// Registers the VFS once per process. Returns an SQLite result code.
int ohk_cipher_vfs_register(void);

/// Copies `key` into the registry (subkeys are derived and the raw key is not kept)
/// and returns its id through `out_id`. Returns an SQLite result code.
int ohk_cipher_key_register(const uint8_t key[OHK_CIPHER_KEY_BYTES], uint64_t *out_id);

/// Drops the caller's hold on a registered key. Files already open keep working;
/// the key's memory is cleansed when the last file using it closes.
void ohk_cipher_key_release(uint64_t id);

/// For a freshly opened connection (`db` is an `sqlite3 *`): checks that its main
/// database file goes through the cipher VFS and, for an empty database, fixes the
/// page size and the reserved-bytes count before the first page is written.
/// Returns an SQLite result code; on error `message` (if not NULL) receives a
/// static English sentence saying what is wrong.
int ohk_cipher_connection_prepare(void *db, const char **message);

/// Checks, without SQLite, whether page 1 of the database at `path` decrypts
/// under registered key `key_id`: 1 it does, 0 it does not, -1 the file has no
/// complete first page (missing or empty), -2 the file could not be read.
int ohk_cipher_probe_database(const char *path, uint64_t key_id);

/// What the last authentication failure on the calling thread was about.
typedef struct ohk_cipher_failure {
    /// 1 main database, 2 WAL, 3 rollback journal, 4 temporary file.
    int file_kind;
    /// Page number (main database) or frame/record index (other kinds).
    int64_t unit;
    /// Path of the file, truncated to fit, or "" for a temporary file.
    char path[512];
} ohk_cipher_failure;

/// Copies and clears the calling thread's last authentication failure.
/// Returns 1 if there was one, 0 otherwise.
int ohk_cipher_take_last_failure(ohk_cipher_failure *out);

/// How many page reads on the calling thread were served from the decrypted-page cache
/// (page_cache.c) since the thread started: for tests, which read on one thread.
uint64_t ohk_cipher_page_cache_thread_hits(void);

/// What a connection's write-ahead log file has done since the connection opened it.
typedef struct ohk_cipher_wal_statistics {
    /// Writes that reached the file (SQLite's frame writes are gathered: wal_write_buffer.c).
    uint64_t file_writes;
    /// Frame pages sealed.
    uint64_t pages_sealed;
    /// Batches of nonces drawn from the CSPRNG for them (nonce_batch.c).
    uint64_t nonce_batches;
} ohk_cipher_wal_statistics;

/// The statistics of connection `db`'s (an `sqlite3 *`) WAL file: 1, or 0 when the connection
/// has no WAL open through the cipher VFS. For tests.
int ohk_cipher_wal_statistics_of(void *db, ohk_cipher_wal_statistics *out);

/// Does what a fork does to the nonce batches, without forking: every batch drawn before
/// is thrown away before its next nonce. For tests.
void ohk_cipher_simulate_fork_child(void);

/// Forks for real: draws a batch and takes one nonce from it, forks, and asks the child whether
/// its next nonce would come from a new draw rather than from the batch it inherited. Returns 1
/// (a new draw: the fork handler ran), 0 (the child would repeat the parent's next nonce), or -1
/// (pipe or fork failed). The child only writes its answer and exits. For tests.
int ohk_cipher_nonce_batch_fork_probe(void);

/// Kinds of file for ohk_cipher_fail_next_writes_of (cipher_internal.h's file_kind).
#define OHK_CIPHER_FILE_DATABASE 1
#define OHK_CIPHER_FILE_WAL 2

/// For tests: the next `count` writes of connection `db`'s (an `sqlite3 *`) main database file
/// (`kind` OHK_CIPHER_FILE_DATABASE) or WAL (OHK_CIPHER_FILE_WAL) to the disk fail as a full disk
/// does (SQLITE_FULL), without reaching it; 0 disarms. Call it on the connection's own thread.
/// Returns 1, or 0 when the connection has no such file open through the cipher VFS. Nothing in
/// the project but tests calls it: unarmed, every write goes to the disk.
int ohk_cipher_fail_next_writes_of(void *db, int kind, int count);

/// For tests: uses up the next nonce that connection `db`'s WAL would seal a frame with, and
/// copies it to `nonce` (12 bytes). Returns 1, or 0 when the connection has no WAL open through
/// the cipher VFS or the CSPRNG failed. Used to compare what a process and its child draw.
int ohk_cipher_wal_take_nonce_of(void *db, uint8_t nonce[OHK_AEAD_NONCE_BYTES]);

/// Fills `buffer` from OpenSSL's CSPRNG. Returns 1 on success.
int ohk_random_bytes(uint8_t *buffer, size_t length);

/// Zeroes memory in a way the compiler may not elide.
void ohk_cleanse(void *buffer, size_t length);

/// AES-256-GCM over a small buffer (key wrapping): fresh random nonce.
/// `ciphertext` has room for `length` bytes. Returns 1 on success.
int ohk_aead_seal(const uint8_t key[OHK_CIPHER_KEY_BYTES],
                  const uint8_t *aad, size_t aad_length,
                  const uint8_t *plaintext, size_t length,
                  uint8_t nonce[OHK_AEAD_NONCE_BYTES], uint8_t *ciphertext,
                  uint8_t tag[OHK_AEAD_TAG_BYTES]);

/// Inverse of ohk_aead_seal. Returns 1 if the tag verifies, 0 otherwise
/// (and then `plaintext` is cleansed).
int ohk_aead_open(const uint8_t key[OHK_CIPHER_KEY_BYTES],
                  const uint8_t *aad, size_t aad_length,
                  const uint8_t *ciphertext, size_t length,
                  const uint8_t nonce[OHK_AEAD_NONCE_BYTES],
                  const uint8_t tag[OHK_AEAD_TAG_BYTES], uint8_t *plaintext);

/// HKDF-SHA256 (RFC 5869) through OpenSSL's EVP_KDF, `out_length` bytes into `out`: the one
/// HKDF of the package (page subkeys, pending-journal entry keys). An empty salt means none
/// (HashLen zero bytes). Returns 1 on success; on failure `out` is cleansed.
int ohk_hkdf_sha256(const uint8_t *secret, size_t secret_length, const uint8_t *salt, size_t salt_length,
                    const uint8_t *info, size_t info_length, uint8_t *out, size_t out_length);

/// scrypt (RFC 7914) through OpenSSL's EVP_KDF. `n` must be a power of two.
/// Returns 1 on success.
int ohk_scrypt(const uint8_t *passcode, size_t passcode_length,
               const uint8_t *salt, size_t salt_length,
               uint64_t n, uint32_t r, uint32_t p,
               uint8_t *out, size_t out_length);

/// Length of a SHA-256 digest.
#define OHK_SHA256_BYTES 32

/// SHA-256 of `data` (the access log's hash chain). Returns 1 on success.
int ohk_sha256(const uint8_t *data, size_t length, uint8_t digest[OHK_SHA256_BYTES]);

#endif
