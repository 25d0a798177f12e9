// Page nonces drawn from OpenSSL's CSPRNG a batch at a time.
//
// Why: every sealed page needs a fresh random 96-bit nonce, and RAND_bytes costs far more per
// call than per byte (OpenSSL's DRBG locks, checks the process id for a fork, and rekeys its
// AES-CTR state on every call): 12 bytes a call was about a third of sealing a page, and a
// tenth of healthd's instructions per durable save (issue 17, Benchmarks/README.md "Session 20").
// Drawing 64 nonces at once keeps each nonce exactly as random (the same generator, the same
// bytes, each used once) at a sixty-fourth of the calls.
//
// What must never happen is two seals with one nonce under one key. A batch belongs to one
// codec (one open file, used under its connection's lock), and each nonce is handed out once.
// The one way a batch could be used twice is a child process that inherits the parent's memory,
// batch included, and seals with it. OpenSSL's generator notices a fork by the process id, but
// a batch drawn before the fork is not the generator's any more. A pthread_atfork handler is not
// enough: glibc's _Fork() and a raw clone() or fork system call run no handlers, and then parent
// and child handed out the same next nonce (cipherreview21, finding 3). So a batch lives in an
// anonymous page of its own marked MADV_WIPEONFORK (Linux 4.14+): the kernel gives any child
// that does not share the parent's memory a zeroed copy, whichever way it was made, and a
// zeroed batch has no nonce left, so the child's first seal draws afresh from its own (reseeded)
// generator. Where the page cannot be had or marked, the file draws one RAND_bytes per nonce,
// as before batching. The fork handler is kept as well (a generation the batch must match): it
// costs nothing and covers fork() should the kernel's wipe ever be missing. A child that
// shares the parent's memory (vfork, posix_spawn) only execs: it never seals a page.
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include "cipher_internal.h"

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18  /* linux/mman.h, Linux 4.14 */
#endif

static volatile uint64_t fork_generation = 1;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
/// Set once, under `handler_once`, before any batch is drawn.
static int fork_handler_registered = 0;
static void forked_child(void) { fork_generation++; }

static void install_fork_handler(void) {
    fork_handler_registered = pthread_atfork(NULL, NULL, forked_child) == 0;
}

/// Whether the next nonce must come from a new draw: the batch is spent (or wiped by a fork:
/// a zeroed page has none left), holds a count no draw made, or was drawn before a fork the
/// handler saw.
static int batch_must_redraw(const nonce_batch_page *page) {
    return page->left <= 0 || page->left > NONCE_BATCH_COUNT || page->generation != fork_generation;
}

void nonce_batch_init(nonce_batch *batch) {
    pthread_once(&handler_once, install_fork_handler);
    memset(batch, 0, sizeof *batch);
}

uint64_t nonce_batches_drawn(const nonce_batch *batch) { return batch->drawn; }

static size_t page_bytes(void) {
    long size = sysconf(_SC_PAGESIZE);
    return size > 0 && (size_t)size >= sizeof(nonce_batch_page) ? (size_t)size : 4096;
}

/// The batch's page, mapped and marked on its first nonce (files that never seal map none);
/// on failure the batch stays unbatched for the file's life.
static void map_page(nonce_batch *batch) {
    // Both guards or none: without the handler (pthread_atfork fails only for want of memory)
    // the file draws one nonce at a time, so no batch ever holds a nonce not yet used.
    if (!fork_handler_registered) {
        batch->unbatched = 1;
        return;
    }
    size_t size = page_bytes();
    void *page = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
        batch->unbatched = 1;
        return;
    }
    if (madvise(page, size, MADV_WIPEONFORK) != 0) {
        munmap(page, size);
        batch->unbatched = 1;
        return;
    }
    batch->page = page;  // zero-filled: no nonce left
}

int nonce_batch_take(nonce_batch *batch, uint8_t nonce[NONCE_BYTES]) {
    if (batch->page == NULL && !batch->unbatched) map_page(batch);
    nonce_batch_page *page = batch->page;
    if (page == NULL) {
        batch->drawn++;
        return RAND_bytes(nonce, NONCE_BYTES) == 1;
    }
    if (batch_must_redraw(page)) {
        if (RAND_bytes(page->bytes, (int)sizeof page->bytes) != 1) {
            page->left = 0;
            return 0;
        }
        page->generation = fork_generation;
        page->left = NONCE_BATCH_COUNT;
        batch->drawn++;
    }
    page->left--;
    uint8_t *next = page->bytes + (size_t)page->left * NONCE_BYTES;
    memcpy(nonce, next, NONCE_BYTES);
    // A nonce handed out is gone from the batch, so no later take can repeat it.
    memset(next, 0, NONCE_BYTES);
    return 1;
}

void nonce_batch_free(nonce_batch *batch) {
    if (batch->page != NULL) {
        OPENSSL_cleanse(batch->page, sizeof *batch->page);
        munmap(batch->page, page_bytes());
    }
    memset(batch, 0, sizeof *batch);
}

void ohk_cipher_simulate_fork_child(void) { forked_child(); }

int ohk_cipher_nonce_batch_fork_probe(void) {
    nonce_batch batch;
    nonce_batch_init(&batch);
    uint8_t nonce[NONCE_BYTES];
    int fds[2];
    if (!nonce_batch_take(&batch, nonce) || batch.page == NULL || pipe(fds) != 0) {
        nonce_batch_free(&batch);
        return -1;
    }
    pid_t child = fork();
    if (child == 0) {
        // Only async-signal-safe calls in the child: the forking process has other threads.
        uint8_t redraws = (uint8_t)batch_must_redraw(batch.page);
        _exit(write(fds[1], &redraws, 1) == 1 ? 0 : 1);
    }
    close(fds[1]);
    uint8_t answer = 0xFF;
    ssize_t got = -1;
    if (child > 0) {
        do { got = read(fds[0], &answer, 1); } while (got < 0 && errno == EINTR);
        int status = 0;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    }
    close(fds[0]);
    nonce_batch_free(&batch);
    return got == 1 ? answer : -1;
}

int ohk_cipher_wal_take_nonce_of(void *db, uint8_t nonce[OHK_AEAD_NONCE_BYTES]) {
    cipher_file *file = cipher_file_of_connection(db, FILE_KIND_WAL);
    return file != NULL && nonce_batch_take(&file->codec.nonces, nonce);
}
