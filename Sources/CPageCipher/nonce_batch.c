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
// The one way a batch could be used twice is a fork: the child inherits the parent's memory,
// batch included. A fork handler bumps a process-wide generation in the child, and a batch
// drawn in another generation is thrown away before its next nonce is taken, so the child draws
// its own (OpenSSL reseeds its generator in a forked child). posix_spawn's child runs no fork
// handlers, but it only execs: it never seals a page.
#include <pthread.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include "cipher_internal.h"

static volatile uint64_t fork_generation = 1;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static void forked_child(void) { fork_generation++; }

static void install_fork_handler(void) { pthread_atfork(NULL, NULL, forked_child); }

void nonce_batch_init(nonce_batch *batch) {
    pthread_once(&handler_once, install_fork_handler);
    memset(batch, 0, sizeof *batch);
}

uint64_t nonce_batches_drawn(const nonce_batch *batch) { return batch->drawn; }

int nonce_batch_take(nonce_batch *batch, uint8_t nonce[NONCE_BYTES]) {
    if (batch->left == 0 || batch->generation != fork_generation) {
        if (RAND_bytes(batch->bytes, (int)sizeof batch->bytes) != 1) {
            batch->left = 0;
            return 0;
        }
        batch->generation = fork_generation;
        batch->left = NONCE_BATCH_COUNT;
        batch->drawn++;
    }
    batch->left--;
    uint8_t *next = batch->bytes + (size_t)batch->left * NONCE_BYTES;
    memcpy(nonce, next, NONCE_BYTES);
    // A nonce handed out is gone from the batch, so no later take can repeat it.
    memset(next, 0, NONCE_BYTES);
    return 1;
}

void nonce_batch_free(nonce_batch *batch) { OPENSSL_cleanse(batch, sizeof *batch); }

void ohk_cipher_simulate_fork_child(void) { forked_child(); }
