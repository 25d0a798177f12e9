// The cipher VFS: a shim over the default (unix) VFS. It picks a file's kind from
// SQLite's open flags, finds its key, and routes reads and writes to the codec for
// that kind; everything else (locking, shared memory, sync) goes to the unix VFS.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/rand.h>
#include "cipher_internal.h"
#include "cipher_file_control.h"

/// Rounded so the unix file that follows a cipher_file is suitably aligned.
#define CIPHER_FILE_BYTES ((sizeof(cipher_file) + 15) & ~(size_t)15)
#define SCRATCH_BYTES (2 * TEMP_STORED_BLOCK_BYTES)

static const sqlite3_io_methods cipher_io_methods;

static sqlite3_vfs *real_vfs_of(sqlite3_vfs *vfs) { return (sqlite3_vfs *)vfs->pAppData; }

/// Kinds with a persistent key named in the URI; the rest get a random key.
static int classify(int flags, file_kind *kind) {
    if (flags & SQLITE_OPEN_MAIN_DB) *kind = FILE_KIND_DATABASE;
    else if (flags & SQLITE_OPEN_WAL) *kind = FILE_KIND_WAL;
    else if (flags & SQLITE_OPEN_MAIN_JOURNAL) *kind = FILE_KIND_JOURNAL;
    else if (flags & SQLITE_OPEN_SUPER_JOURNAL) return 0;  // lists file names; unused in WAL mode
    else *kind = FILE_KIND_TEMP;
    return 1;
}

static void release_file_resources(cipher_file *file) {
    wal_buffer_free(file);
    page_codec_free(&file->codec);
    EVP_CIPHER_CTX_free(file->wal_mask);
    file->wal_mask = NULL;
    if (file->scratch != NULL) {
        OPENSSL_cleanse(file->scratch, SCRATCH_BYTES);
        sqlite3_free(file->scratch);
        file->scratch = NULL;
    }
    if (file->key_id != 0) key_registry_release(file->key_id);
    file->key_id = 0;
}

/// Sets up the codec (and for a WAL the checksum mask) from the file's key.
static int set_up_keys(cipher_file *file, const char *name) {
    derived_keys keys;
    if (file->kind == FILE_KIND_TEMP) {
        if (RAND_bytes(keys.page_key, sizeof keys.page_key) != 1) return SQLITE_IOERR;
    } else {
        const char *id_text = name != NULL ? sqlite3_uri_parameter(name, OHK_CIPHER_KEY_PARAMETER) : NULL;
        uint64_t id = id_text != NULL ? strtoull(id_text, NULL, 10) : 0;
        if (id == 0 || !key_registry_retain(id, &keys)) {
            sqlite3_log(SQLITE_CANTOPEN, "ohk-cipher: %s was opened without a registered key",
                        name != NULL ? name : "a file");
            return SQLITE_CANTOPEN;
        }
        file->key_id = id;
    }
    int ok = page_codec_init(&file->codec, keys.page_key);
    if (ok && file->kind == FILE_KIND_WAL) {
        file->wal_mask = EVP_CIPHER_CTX_new();
        ok = file->wal_mask != NULL
            && EVP_EncryptInit_ex(file->wal_mask, EVP_aes_256_ecb(), NULL, keys.wal_mask_key, NULL) == 1
            && EVP_CIPHER_CTX_set_padding(file->wal_mask, 0) == 1;
    }
    OPENSSL_cleanse(&keys, sizeof keys);
    return ok ? SQLITE_OK : SQLITE_IOERR;
}

static int cipher_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *base, int flags, int *out_flags) {
    cipher_file *file = (cipher_file *)base;
    memset(file, 0, sizeof *file);
    file->real = (sqlite3_file *)((uint8_t *)file + CIPHER_FILE_BYTES);
    file->path = name;
    if (!classify(flags, &file->kind)) {
        sqlite3_log(SQLITE_CANTOPEN, "ohk-cipher: super-journals are not supported");
        return SQLITE_CANTOPEN;
    }
    int rc = set_up_keys(file, name);
    if (rc == SQLITE_OK) {
        file->scratch = sqlite3_malloc(SCRATCH_BYTES);
        if (file->scratch == NULL) rc = SQLITE_NOMEM;
    }
    if (rc == SQLITE_OK) {
        sqlite3_vfs *real = real_vfs_of(vfs);
        rc = real->xOpen(real, name, file->real, flags, out_flags);
    }
    if (rc != SQLITE_OK) {
        // SQLite calls xClose only when pMethods is set; clean up here instead.
        if (file->real->pMethods != NULL) file->real->pMethods->xClose(file->real);
        release_file_resources(file);
        base->pMethods = NULL;
        return rc;
    }
    base->pMethods = &cipher_io_methods;
    return SQLITE_OK;
}

static cipher_file *as_cipher(sqlite3_file *base) { return (cipher_file *)base; }

/// A WAL's buffered writes (wal_write_buffer.c) reach the file before any other operation
/// on it but a file control; other kinds buffer nothing. None of these operations is a write,
/// so a failure is reported as an I/O error (wal_write_buffer.c says why).
static int flush_wal(cipher_file *file) {
    return file->kind == FILE_KIND_WAL ? wal_buffer_flush_unasked(file) : SQLITE_OK;
}

static int cipher_close(sqlite3_file *base) {
    cipher_file *file = as_cipher(base);
    int flushed = flush_wal(file);
    int rc = file->real->pMethods->xClose(file->real);
    if (rc == SQLITE_OK) rc = flushed;
    release_file_resources(file);
    return rc;
}

static int cipher_read(sqlite3_file *base, void *out, int amount, sqlite3_int64 offset) {
    cipher_file *file = as_cipher(base);
    switch (file->kind) {
    case FILE_KIND_DATABASE: return database_file_read(file, out, amount, offset);
    case FILE_KIND_WAL: return wal_file_read(file, out, amount, offset);
    case FILE_KIND_JOURNAL: return journal_file_read(file, out, amount, offset);
    case FILE_KIND_TEMP: return temp_file_read(file, out, amount, offset);
    }
    return SQLITE_IOERR_READ;
}

static int cipher_write(sqlite3_file *base, const void *in, int amount, sqlite3_int64 offset) {
    cipher_file *file = as_cipher(base);
    switch (file->kind) {
    case FILE_KIND_DATABASE: return database_file_write(file, in, amount, offset);
    case FILE_KIND_WAL: return wal_file_write(file, in, amount, offset);
    case FILE_KIND_JOURNAL: return journal_file_write(file, in, amount, offset);
    case FILE_KIND_TEMP: return temp_file_write(file, in, amount, offset);
    }
    return SQLITE_IOERR_WRITE;
}

static int cipher_truncate(sqlite3_file *base, sqlite3_int64 size) {
    cipher_file *file = as_cipher(base);
    if (file->kind == FILE_KIND_TEMP) return temp_file_truncate(file, size);
    int flushed = flush_wal(file);
    if (flushed != SQLITE_OK) return flushed;
    return file->real->pMethods->xTruncate(file->real, size);
}

static int cipher_file_size(sqlite3_file *base, sqlite3_int64 *size) {
    cipher_file *file = as_cipher(base);
    if (file->kind == FILE_KIND_TEMP) {
        *size = file->logical_size;
        return SQLITE_OK;
    }
    int flushed = flush_wal(file);
    if (flushed != SQLITE_OK) return flushed;
    return file->real->pMethods->xFileSize(file->real, size);
}

static int cipher_file_control(sqlite3_file *base, int op, void *argument) {
    cipher_file *file = as_cipher(base);
    switch (op) {
    case OHK_FCNTL_CIPHER_FILE_KIND:
        *(int *)argument = (int)file->kind;
        return SQLITE_OK;
    case SQLITE_FCNTL_MMAP_SIZE:
        // Memory-mapped pages would hand SQLite ciphertext: mapping stays off.
        *(sqlite3_int64 *)argument = 0;
        return SQLITE_OK;
    default:
        // No flush: SQLite ignores what most file controls return, so a failed flush would go
        // unseen, and none needs the WAL's bytes in the file (wal_write_buffer.c).
        return file->real->pMethods->xFileControl(file->real, op, argument);
    }
}

static int cipher_device_characteristics(sqlite3_file *base) {
    cipher_file *file = as_cipher(base);
    int atomic = SQLITE_IOCAP_ATOMIC | SQLITE_IOCAP_ATOMIC512 | SQLITE_IOCAP_ATOMIC1K | SQLITE_IOCAP_ATOMIC2K
        | SQLITE_IOCAP_ATOMIC4K | SQLITE_IOCAP_ATOMIC8K | SQLITE_IOCAP_ATOMIC16K | SQLITE_IOCAP_ATOMIC32K
        | SQLITE_IOCAP_ATOMIC64K | SQLITE_IOCAP_BATCH_ATOMIC;
    // Atomic-write promises of the disk do not carry over to a layer that rewrites
    // whole blocks (temporary files) or adds nonces; never advertise them.
    return file->real->pMethods->xDeviceCharacteristics(file->real) & ~atomic;
}

static int cipher_fetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **page) {
    (void)base; (void)offset; (void)amount;
    *page = NULL;  // "no mapping": SQLite falls back to xRead, which decrypts
    return SQLITE_OK;
}

static int cipher_unfetch(sqlite3_file *base, sqlite3_int64 offset, void *page) {
    (void)base; (void)offset; (void)page;
    return SQLITE_OK;
}

/* Pass-through methods. */
static sqlite3_file *real_of(sqlite3_file *base) { return as_cipher(base)->real; }
static int cipher_sync(sqlite3_file *b, int flags) {
    int flushed = flush_wal(as_cipher(b));
    if (flushed != SQLITE_OK) return flushed;
    return real_of(b)->pMethods->xSync(real_of(b), flags);
}
static int cipher_lock(sqlite3_file *b, int level) { return real_of(b)->pMethods->xLock(real_of(b), level); }
static int cipher_unlock(sqlite3_file *b, int level) { return real_of(b)->pMethods->xUnlock(real_of(b), level); }
static int cipher_check_reserved_lock(sqlite3_file *b, int *out) {
    return real_of(b)->pMethods->xCheckReservedLock(real_of(b), out);
}
static int cipher_sector_size(sqlite3_file *b) { return real_of(b)->pMethods->xSectorSize(real_of(b)); }
static int cipher_shm_map(sqlite3_file *b, int region, int size, int extend, void volatile **out) {
    return real_of(b)->pMethods->xShmMap(real_of(b), region, size, extend, out);
}
static int cipher_shm_lock(sqlite3_file *b, int offset, int n, int flags) {
    return real_of(b)->pMethods->xShmLock(real_of(b), offset, n, flags);
}
static void cipher_shm_barrier(sqlite3_file *b) { real_of(b)->pMethods->xShmBarrier(real_of(b)); }
static int cipher_shm_unmap(sqlite3_file *b, int delete_flag) {
    return real_of(b)->pMethods->xShmUnmap(real_of(b), delete_flag);
}

static const sqlite3_io_methods cipher_io_methods = {
    3,
    cipher_close, cipher_read, cipher_write, cipher_truncate, cipher_sync, cipher_file_size,
    cipher_lock, cipher_unlock, cipher_check_reserved_lock, cipher_file_control,
    cipher_sector_size, cipher_device_characteristics,
    cipher_shm_map, cipher_shm_lock, cipher_shm_barrier, cipher_shm_unmap,
    cipher_fetch, cipher_unfetch,
};

/* VFS methods other than xOpen are the unix VFS's. */
#define REAL(vfs) real_vfs_of(vfs)
static int vfs_delete(sqlite3_vfs *v, const char *n, int sync) { return REAL(v)->xDelete(REAL(v), n, sync); }
static int vfs_access(sqlite3_vfs *v, const char *n, int f, int *out) { return REAL(v)->xAccess(REAL(v), n, f, out); }
static int vfs_full_pathname(sqlite3_vfs *v, const char *n, int size, char *out) {
    return REAL(v)->xFullPathname(REAL(v), n, size, out);
}
static void *vfs_dl_open(sqlite3_vfs *v, const char *n) { return REAL(v)->xDlOpen(REAL(v), n); }
static void vfs_dl_error(sqlite3_vfs *v, int n, char *out) { REAL(v)->xDlError(REAL(v), n, out); }
static void (*vfs_dl_sym(sqlite3_vfs *v, void *h, const char *s))(void) { return REAL(v)->xDlSym(REAL(v), h, s); }
static void vfs_dl_close(sqlite3_vfs *v, void *h) { REAL(v)->xDlClose(REAL(v), h); }
static int vfs_randomness(sqlite3_vfs *v, int n, char *out) { return REAL(v)->xRandomness(REAL(v), n, out); }
static int vfs_sleep(sqlite3_vfs *v, int micros) { return REAL(v)->xSleep(REAL(v), micros); }
static int vfs_current_time(sqlite3_vfs *v, double *out) { return REAL(v)->xCurrentTime(REAL(v), out); }
static int vfs_last_error(sqlite3_vfs *v, int n, char *out) { return REAL(v)->xGetLastError(REAL(v), n, out); }
static int vfs_current_time_int64(sqlite3_vfs *v, sqlite3_int64 *out) {
    return REAL(v)->xCurrentTimeInt64(REAL(v), out);
}

static sqlite3_vfs cipher_vfs = {
    2, 0, 0, NULL, OHK_CIPHER_VFS_NAME, NULL,
    cipher_open, vfs_delete, vfs_access, vfs_full_pathname,
    vfs_dl_open, vfs_dl_error, vfs_dl_sym, vfs_dl_close,
    vfs_randomness, vfs_sleep, vfs_current_time, vfs_last_error, vfs_current_time_int64,
    NULL, NULL, NULL,
};

static pthread_once_t register_once = PTHREAD_ONCE_INIT;
static int register_result = SQLITE_ERROR;

static void register_vfs(void) {
    sqlite3_vfs *real = sqlite3_vfs_find(NULL);
    if (real == NULL || real->iVersion < 2) return;
    cipher_vfs.szOsFile = (int)CIPHER_FILE_BYTES + real->szOsFile;
    cipher_vfs.mxPathname = real->mxPathname;
    cipher_vfs.pAppData = real;
    register_result = sqlite3_vfs_register(&cipher_vfs, 0);
}

cipher_file *cipher_file_of_connection(void *db, file_kind kind) {
    if (kind != FILE_KIND_DATABASE && kind != FILE_KIND_WAL) return NULL;
    sqlite3_file *found = NULL;
    // The journal pointer is the WAL's file object when the connection has a WAL open (else its
    // rollback journal's).
    int op = kind == FILE_KIND_DATABASE ? SQLITE_FCNTL_FILE_POINTER : SQLITE_FCNTL_JOURNAL_POINTER;
    if (sqlite3_file_control((sqlite3 *)db, "main", op, &found) != SQLITE_OK
        || found == NULL || found->pMethods != &cipher_io_methods) return NULL;
    cipher_file *file = as_cipher(found);
    return file->kind == kind ? file : NULL;
}

int ohk_cipher_wal_statistics_of(void *db, ohk_cipher_wal_statistics *out) {
    memset(out, 0, sizeof *out);
    cipher_file *file = cipher_file_of_connection(db, FILE_KIND_WAL);
    if (file == NULL) return 0;
    out->file_writes = file->wal_file_writes;
    out->pages_sealed = file->wal_pages_sealed;
    out->nonce_batches = nonce_batches_drawn(&file->codec.nonces);
    return 1;
}

int ohk_cipher_vfs_register(void) {
    pthread_once(&register_once, register_vfs);
    return register_result;
}
