// Process-wide table of registered data keys. A database connection names its key
// by id in its URI (never the key itself, which would then show up in file names);
// each open file holds a reference so a connection can still open its WAL after the
// owner released the key. Only subkeys are stored; memory is cleansed on removal.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "cipher_internal.h"

typedef struct registry_entry {
    uint64_t id;
    int references;
    derived_keys keys;
    struct registry_entry *next;
} registry_entry;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static registry_entry *registry_head = NULL;
static uint64_t registry_next_id = 1;

/// HKDF-SHA256(key, no salt, info = label) (kdf.c): separate keys for page sealing and WAL masking.
static int derive_subkey(const uint8_t key[OHK_CIPHER_KEY_BYTES], const char *label,
                         uint8_t out[OHK_CIPHER_KEY_BYTES]) {
    return ohk_hkdf_sha256(key, OHK_CIPHER_KEY_BYTES, NULL, 0, (const uint8_t *)label, strlen(label),
                           out, OHK_CIPHER_KEY_BYTES);
}

static void entry_destroy(registry_entry *entry) {
    OPENSSL_cleanse(&entry->keys, sizeof entry->keys);
    free(entry);
}

int ohk_cipher_key_register(const uint8_t key[OHK_CIPHER_KEY_BYTES], uint64_t *out_id) {
    registry_entry *entry = calloc(1, sizeof *entry);
    if (entry == NULL) return SQLITE_NOMEM;
    if (!derive_subkey(key, "openhealthkit page v1", entry->keys.page_key)
        || !derive_subkey(key, "openhealthkit wal checksum mask v1", entry->keys.wal_mask_key)) {
        entry_destroy(entry);
        return SQLITE_ERROR;
    }
    entry->references = 1;
    pthread_mutex_lock(&registry_lock);
    entry->id = registry_next_id++;
    entry->next = registry_head;
    registry_head = entry;
    pthread_mutex_unlock(&registry_lock);
    *out_id = entry->id;
    return SQLITE_OK;
}

/// Unlinks and returns the entry if this drop was its last reference.
static registry_entry *drop_reference_locked(uint64_t id) {
    for (registry_entry **link = &registry_head; *link != NULL; link = &(*link)->next) {
        registry_entry *entry = *link;
        if (entry->id != id) continue;
        if (--entry->references > 0) return NULL;
        *link = entry->next;
        return entry;
    }
    return NULL;
}

void ohk_cipher_key_release(uint64_t id) {
    pthread_mutex_lock(&registry_lock);
    registry_entry *dead = drop_reference_locked(id);
    pthread_mutex_unlock(&registry_lock);
    if (dead != NULL) {
        page_cache_forget_key(id);
        entry_destroy(dead);
    }
}

void key_registry_release(uint64_t id) { ohk_cipher_key_release(id); }

int key_registry_retain(uint64_t id, derived_keys *out) {
    int found = 0;
    pthread_mutex_lock(&registry_lock);
    for (registry_entry *entry = registry_head; entry != NULL; entry = entry->next) {
        if (entry->id != id) continue;
        entry->references++;
        memcpy(out, &entry->keys, sizeof *out);
        found = 1;
        break;
    }
    pthread_mutex_unlock(&registry_lock);
    return found;
}
