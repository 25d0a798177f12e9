// X25519 for the pending journal (see include/CJournalSeal.h). Key bytes pass through
// OpenSSL's EVP_PKEY objects, which cleanse them when freed.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include "CJournalSeal.h"

int ohk_x25519_keypair(uint8_t private_key[OHK_X25519_KEY_BYTES], uint8_t public_key[OHK_X25519_KEY_BYTES]) {
    EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "X25519");
    if (key == NULL) return 0;
    size_t private_length = OHK_X25519_KEY_BYTES, public_length = OHK_X25519_KEY_BYTES;
    int ok = EVP_PKEY_get_raw_private_key(key, private_key, &private_length) == 1
        && EVP_PKEY_get_raw_public_key(key, public_key, &public_length) == 1
        && private_length == OHK_X25519_KEY_BYTES && public_length == OHK_X25519_KEY_BYTES;
    EVP_PKEY_free(key);
    if (!ok) OPENSSL_cleanse(private_key, OHK_X25519_KEY_BYTES);
    return ok;
}

int ohk_x25519_shared(const uint8_t private_key[OHK_X25519_KEY_BYTES],
                      const uint8_t peer_public_key[OHK_X25519_KEY_BYTES],
                      uint8_t shared[OHK_X25519_KEY_BYTES]) {
    EVP_PKEY *own = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, private_key, OHK_X25519_KEY_BYTES);
    EVP_PKEY *peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, peer_public_key, OHK_X25519_KEY_BYTES);
    EVP_PKEY_CTX *ctx = own != NULL ? EVP_PKEY_CTX_new(own, NULL) : NULL;
    size_t length = OHK_X25519_KEY_BYTES;
    // OpenSSL's X25519 derive refuses an all-zero result (a low-order peer point).
    int ok = own != NULL && peer != NULL && ctx != NULL
        && EVP_PKEY_derive_init(ctx) == 1
        && EVP_PKEY_derive_set_peer(ctx, peer) == 1
        && EVP_PKEY_derive(ctx, shared, &length) == 1
        && length == OHK_X25519_KEY_BYTES;
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(peer);
    EVP_PKEY_free(own);
    if (!ok) OPENSSL_cleanse(shared, OHK_X25519_KEY_BYTES);
    return ok;
}
