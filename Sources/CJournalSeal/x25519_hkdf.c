// X25519 and HKDF-SHA256 for the pending journal (see include/CJournalSeal.h). Key bytes pass
// through OpenSSL's EVP_PKEY objects, which cleanse them when freed.
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
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

int ohk_hkdf_sha256(const uint8_t *secret, size_t secret_length, const uint8_t *salt, size_t salt_length,
                    const uint8_t *info, size_t info_length, uint8_t *out, size_t out_length) {
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    if (kdf == NULL) return 0;
    EVP_KDF_CTX *ctx = EVP_KDF_CTX_new(kdf);
    EVP_KDF_free(kdf);
    if (ctx == NULL) return 0;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, "SHA256", 0),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)secret, secret_length),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_length),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, info_length),
        OSSL_PARAM_construct_end(),
    };
    int ok = EVP_KDF_derive(ctx, out, out_length, params) == 1;
    EVP_KDF_CTX_free(ctx);
    if (!ok) OPENSSL_cleanse(out, out_length);
    return ok;
}
