// SHA-256 for the access log's hash chain. Lives here because this target already links
// OpenSSL; the package has no Swift SHA-256 of its own.
#include <openssl/evp.h>
#include "CPageCipher.h"

int ohk_sha256(const uint8_t *data, size_t length, uint8_t digest[OHK_SHA256_BYTES]) {
    unsigned int produced = 0;
    return EVP_Digest(data, length, digest, &produced, EVP_sha256(), NULL) == 1
        && produced == OHK_SHA256_BYTES;
}
