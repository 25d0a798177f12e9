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
// handlers, but it only execs: it never seals a page. Should the handler fail to register
// (pthread_atfork fails only for want of memory), a child could not tell, so every draw is then
// one nonce: no batch ever holds a nonce not yet used, and a fork has nothing to repeat.
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include "cipher_internal.h"

static volatile uint64_t fork_generation = 1;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
/// Set once, under `handler_once`, before any batch is drawn.
static int fork_handler_registered = 0;
static void forked_child(void) { fork_generation++; }

static void install_fork_handler(void) {
    fork_handler_registered = pthread_atfork(NULL, NULL, forked_child) == 0;
}

/// Whether the next nonce must come from a new draw: the batch is spent, or was drawn before
/// a fork (in the parent, which goes on taking from its own copy).
static int batch_must_redraw(const nonce_batch *batch) {
    return batch->left == 0 || batch->generation != fork_generation;
}

void nonce_batch_init(nonce_batch *batch) {
    pthread_once(&handler_once, install_fork_handler);
    memset(batch, 0, sizeof *batch);
}

uint64_t nonce_batches_drawn(const nonce_batch *batch) { return batch->drawn; }

int nonce_batch_take(nonce_batch *batch, uint8_t nonce[NONCE_BYTES]) {
    if (batch_must_redraw(batch)) {
        int count = fork_handler_registered ? NONCE_BATCH_COUNT : 1;
        if (RAND_bytes(batch->bytes, count * NONCE_BYTES) != 1) {
            batch->left = 0;
            return 0;
        }
        batch->generation = fork_generation;
        batch->left = count;
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

int ohk_cipher_nonce_batch_fork_probe(void) {
    nonce_batch batch;
    nonce_batch_init(&batch);
    uint8_t nonce[NONCE_BYTES];
    int fds[2];
    if (!nonce_batch_take(&batch, nonce) || pipe(fds) != 0) {
        nonce_batch_free(&batch);
        return -1;
    }
    pid_t child = fork();
    if (child == 0) {
        // Only async-signal-safe calls in the child: the forking process has other threads.
        uint8_t redraws = (uint8_t)batch_must_redraw(&batch);
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
