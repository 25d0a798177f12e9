// A process-wide cache of decrypted database and WAL pages, below SQLite.
//
// Why: in WAL mode a connection throws its whole page cache away when it starts a read
// after any other connection committed (SQLite's pager_reset; the WAL index changed), and
// healthd commits an access-log entry for every read. So every query used to read and
// decrypt again every page it touched, however large SQLite's cache (issue 17).
//
// Why it can never serve a stale page: an entry holds the sealed bytes exactly as they were
// read from disk, with the key id, file kind and unit (page number or WAL frame index) they
// were read under. A read still reads the sealed page from disk, and is served from the
// entry only if those bytes are byte-for-byte the entry's: AES-GCM decryption is a function
// of key, associated data (kind and unit) and sealed bytes, so the plaintext is exactly what
// decrypting them again would give, and they authenticated when the entry was made. A page
// rewritten in place (a checkpoint into the database file, a WAL restarted from frame 0) has
// a fresh nonce and so other sealed bytes: it misses. Tampered bytes miss too and fail
// authentication as before. Key ids are never reused within a process, and an entry's
// plaintext is cleansed when its key's last holder lets go (page_cache_forget_key).
//
// What it saves is the decryption (AES-256-GCM of 4068 bytes and its set-up), not the read
// from the file: comparing and copying two pages costs a fraction of that.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "cipher_internal.h"

/// 1,024 entries of two pages each: 8 MiB, allocated on the first store. A 10,000-sample
/// query touches a few hundred pages; larger scans cycle through the cache (direct-mapped,
/// the newest page wins its slot).
#define CACHE_SLOTS 1024
/// Slots are guarded by striped locks: readers of different pages rarely wait for each other.
#define CACHE_LOCKS 64

typedef struct cache_slot {
    uint64_t key_id;  /* 0: empty */
    uint64_t unit;
    int kind;
    uint8_t sealed[PAGE_SIZE_BYTES];
    uint8_t plain[PAGE_SIZE_BYTES];
} cache_slot;

static cache_slot *slots = NULL;
static pthread_once_t slots_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t locks[CACHE_LOCKS];
static _Thread_local uint64_t thread_hits = 0;

static void allocate_slots(void) {
    for (int i = 0; i < CACHE_LOCKS; i++) pthread_mutex_init(&locks[i], NULL);
    // calloc: untouched slots cost no resident memory until a page lands in them.
    slots = calloc(CACHE_SLOTS, sizeof *slots);
}

static size_t slot_index(uint64_t key_id, file_kind kind, uint64_t unit) {
    uint64_t h = unit * 0x9E3779B97F4A7C15ull ^ (key_id << 1) ^ ((uint64_t)kind << 60);
    h ^= h >> 29;
    return (size_t)(h % CACHE_SLOTS);
}

static int cacheable(uint64_t key_id, file_kind kind) {
    return key_id != 0 && (kind == FILE_KIND_DATABASE || kind == FILE_KIND_WAL);
}

int page_cache_lookup(uint64_t key_id, file_kind kind, uint64_t unit, const uint8_t *sealed, uint8_t *out) {
    if (!cacheable(key_id, kind)) return 0;
    pthread_once(&slots_once, allocate_slots);
    if (slots == NULL) return 0;
    size_t index = slot_index(key_id, kind, unit);
    cache_slot *slot = &slots[index];
    pthread_mutex_t *lock = &locks[index % CACHE_LOCKS];
    int hit = 0;
    pthread_mutex_lock(lock);
    if (slot->key_id == key_id && slot->kind == (int)kind && slot->unit == unit
        && memcmp(slot->sealed, sealed, PAGE_SIZE_BYTES) == 0) {
        memcpy(out, slot->plain, PAGE_SIZE_BYTES);
        hit = 1;
    }
    pthread_mutex_unlock(lock);
    if (hit) thread_hits++;
    return hit;
}

void page_cache_store(uint64_t key_id, file_kind kind, uint64_t unit, const uint8_t *sealed, const uint8_t *plain) {
    if (!cacheable(key_id, kind)) return;
    pthread_once(&slots_once, allocate_slots);
    if (slots == NULL) return;
    size_t index = slot_index(key_id, kind, unit);
    cache_slot *slot = &slots[index];
    pthread_mutex_t *lock = &locks[index % CACHE_LOCKS];
    pthread_mutex_lock(lock);
    slot->key_id = key_id;
    slot->kind = (int)kind;
    slot->unit = unit;
    memcpy(slot->sealed, sealed, PAGE_SIZE_BYTES);
    memcpy(slot->plain, plain, PAGE_SIZE_BYTES);
    pthread_mutex_unlock(lock);
}

void page_cache_forget_key(uint64_t key_id) {
    if (key_id == 0) return;
    pthread_once(&slots_once, allocate_slots);
    if (slots == NULL) return;
    for (size_t index = 0; index < CACHE_SLOTS; index++) {
        cache_slot *slot = &slots[index];
        pthread_mutex_t *lock = &locks[index % CACHE_LOCKS];
        pthread_mutex_lock(lock);
        if (slot->key_id == key_id) {
            OPENSSL_cleanse(slot, sizeof *slot);
        }
        pthread_mutex_unlock(lock);
    }
}

uint64_t ohk_cipher_page_cache_thread_hits(void) { return thread_hits; }
