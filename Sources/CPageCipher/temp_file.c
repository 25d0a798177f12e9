// Temporary files (sorter runs, VACUUM's copy, statement journals, transient
// tables). Their reads and writes have any size and offset, and transient tables
// have no reserved bytes, so they are stored as 4096-byte blocks each followed by
// its nonce and tag, under a random key that lives only as long as the file.
// The logical size is kept in memory: these files die with their connection.
#include <string.h>
#include "cipher_internal.h"

static uint8_t *stored_block(cipher_file *file) { return file->scratch; }
static uint8_t *plain_block(cipher_file *file) { return file->scratch + TEMP_STORED_BLOCK_BYTES; }

static sqlite3_int64 stored_offset(sqlite3_int64 block) { return block * TEMP_STORED_BLOCK_BYTES; }

/// Decrypts block `block` into plain_block(file).
static int load_block(cipher_file *file, sqlite3_int64 block) {
    int rc = file->real->pMethods->xRead(file->real, stored_block(file), TEMP_STORED_BLOCK_BYTES,
                                         stored_offset(block));
    if (rc == SQLITE_IOERR_SHORT_READ) rc = SQLITE_IOERR_DATA;
    if (rc == SQLITE_OK && page_codec_open(&file->codec, FILE_KIND_TEMP, (uint64_t)block, stored_block(file),
                                           plain_block(file), TEMP_STORED_BLOCK_BYTES)) {
        return SQLITE_OK;
    }
    if (rc == SQLITE_OK || rc == SQLITE_IOERR_DATA) {
        failure_report(file, block, 0);
        return SQLITE_IOERR_DATA;
    }
    return rc;
}

/// Encrypts plain_block(file) and writes it as block `block`.
static int store_block(cipher_file *file, sqlite3_int64 block) {
    if (!page_codec_seal(&file->codec, FILE_KIND_TEMP, (uint64_t)block, plain_block(file),
                         stored_block(file), TEMP_STORED_BLOCK_BYTES)) {
        return SQLITE_IOERR_WRITE;
    }
    return cipher_file_write_real(file, stored_block(file), TEMP_STORED_BLOCK_BYTES, stored_offset(block));
}

/// Writes `amount` bytes from `in` (or zeros when `in` is NULL) at `offset`,
/// re-encrypting each touched block whole.
static int write_range(cipher_file *file, const uint8_t *in, sqlite3_int64 amount, sqlite3_int64 offset) {
    while (amount > 0) {
        sqlite3_int64 block = offset / TEMP_BLOCK_BYTES;
        int within = (int)(offset % TEMP_BLOCK_BYTES);
        int count = (int)((amount < TEMP_BLOCK_BYTES - within) ? amount : TEMP_BLOCK_BYTES - within);
        if (count < TEMP_BLOCK_BYTES && block * TEMP_BLOCK_BYTES < file->logical_size) {
            int rc = load_block(file, block);
            if (rc != SQLITE_OK) return rc;
        } else if (count < TEMP_BLOCK_BYTES) {
            memset(plain_block(file), 0, TEMP_BLOCK_BYTES);
        }
        if (in != NULL) memcpy(plain_block(file) + within, in, (size_t)count);
        else memset(plain_block(file) + within, 0, (size_t)count);
        int rc = store_block(file, block);
        if (rc != SQLITE_OK) return rc;
        if (offset + count > file->logical_size) file->logical_size = offset + count;
        if (in != NULL) in += count;
        offset += count;
        amount -= count;
    }
    return SQLITE_OK;
}

int temp_file_write(cipher_file *file, const void *in, int amount, sqlite3_int64 offset) {
    if (offset > file->logical_size) {
        // Fill the gap so every block below the logical size is a sealed block.
        int rc = write_range(file, NULL, offset - file->logical_size, file->logical_size);
        if (rc != SQLITE_OK) return rc;
    }
    return write_range(file, in, amount, offset);
}

int temp_file_read(cipher_file *file, void *out, int amount, sqlite3_int64 offset) {
    uint8_t *bytes = out;
    sqlite3_int64 available = file->logical_size - offset;
    int wanted = amount;
    if (available < amount) wanted = available > 0 ? (int)available : 0;
    for (int done = 0; done < wanted;) {
        sqlite3_int64 position = offset + done;
        sqlite3_int64 block = position / TEMP_BLOCK_BYTES;
        int within = (int)(position % TEMP_BLOCK_BYTES);
        int count = wanted - done < TEMP_BLOCK_BYTES - within ? wanted - done : TEMP_BLOCK_BYTES - within;
        int rc = load_block(file, block);
        if (rc != SQLITE_OK) {
            memset(out, 0, (size_t)amount);
            return rc;
        }
        memcpy(bytes + done, plain_block(file) + within, (size_t)count);
        done += count;
    }
    if (wanted < amount) {
        memset(bytes + wanted, 0, (size_t)(amount - wanted));
        return SQLITE_IOERR_SHORT_READ;
    }
    return SQLITE_OK;
}

int temp_file_truncate(cipher_file *file, sqlite3_int64 size) {
    if (size > file->logical_size) {
        return write_range(file, NULL, size - file->logical_size, file->logical_size);
    }
    sqlite3_int64 blocks = (size + TEMP_BLOCK_BYTES - 1) / TEMP_BLOCK_BYTES;
    int tail = (int)(size % TEMP_BLOCK_BYTES);
    if (tail != 0) {
        // Zero the cut-off part of the last block so a later extension reads zeros.
        int rc = load_block(file, blocks - 1);
        if (rc != SQLITE_OK) return rc;
        memset(plain_block(file) + tail, 0, (size_t)(TEMP_BLOCK_BYTES - tail));
        rc = store_block(file, blocks - 1);
        if (rc != SQLITE_OK) return rc;
    }
    file->logical_size = size;
    return file->real->pMethods->xTruncate(file->real, stored_offset(blocks));
}
