// SHA-256 for the access log's hash chain. Lives here because this target already links
// OpenSSL; the package has no Swift SHA-256 of its own.
#include <pthread.h>
#include <openssl/evp.h>
#include "CPageCipher.h"

// Fetched once: handing EVP_Digest the legacy EVP_sha256() makes OpenSSL 3 look the algorithm
// up in its provider tables on every call, which cost twice the hashing of an access-log entry
// (issue 17, Benchmarks/README.md "Session 20").
static EVP_MD *sha256 = NULL;
static pthread_once_t sha256_once = PTHREAD_ONCE_INIT;

static void fetch_sha256(void) { sha256 = EVP_MD_fetch(NULL, "SHA256", NULL); }

int ohk_sha256(const uint8_t *data, size_t length, uint8_t digest[OHK_SHA256_BYTES]) {
    pthread_once(&sha256_once, fetch_sha256);
    unsigned int produced = 0;
    return EVP_Digest(data, length, digest, &produced, sha256 != NULL ? sha256 : EVP_sha256(), NULL) == 1
        && produced == OHK_SHA256_BYTES;
}
