// Small-secret primitives for key custody: CSPRNG, cleansing, AES-256-GCM over a
// short buffer (wrapping a data key) and scrypt for passcodes.
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>
#include "cipher_internal.h"

int ohk_random_bytes(uint8_t *buffer, size_t length) {
    return RAND_bytes(buffer, (int)length) == 1;
}

void ohk_cleanse(void *buffer, size_t length) { OPENSSL_cleanse(buffer, length); }

int ohk_aead_seal(const uint8_t key[OHK_CIPHER_KEY_BYTES], const uint8_t *aad, size_t aad_length,
                  const uint8_t *plaintext, size_t length, uint8_t nonce[OHK_AEAD_NONCE_BYTES],
                  uint8_t *ciphertext, uint8_t tag[OHK_AEAD_TAG_BYTES]) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int produced = 0, ok = ctx != NULL && RAND_bytes(nonce, OHK_AEAD_NONCE_BYTES) == 1
        && EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, nonce) == 1
        && EVP_EncryptUpdate(ctx, NULL, &produced, aad, (int)aad_length) == 1
        && EVP_EncryptUpdate(ctx, ciphertext, &produced, plaintext, (int)length) == 1
        && EVP_EncryptFinal_ex(ctx, ciphertext + produced, &produced) == 1
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, OHK_AEAD_TAG_BYTES, tag) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

int ohk_aead_open(const uint8_t key[OHK_CIPHER_KEY_BYTES], const uint8_t *aad, size_t aad_length,
                  const uint8_t *ciphertext, size_t length, const uint8_t nonce[OHK_AEAD_NONCE_BYTES],
                  const uint8_t tag[OHK_AEAD_TAG_BYTES], uint8_t *plaintext) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int produced = 0, ok = ctx != NULL
        && EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, nonce) == 1
        && EVP_DecryptUpdate(ctx, NULL, &produced, aad, (int)aad_length) == 1
        && EVP_DecryptUpdate(ctx, plaintext, &produced, ciphertext, (int)length) == 1
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, OHK_AEAD_TAG_BYTES, (void *)tag) == 1
        && EVP_DecryptFinal_ex(ctx, plaintext + produced, &produced) == 1;
    EVP_CIPHER_CTX_free(ctx);
    if (!ok) OPENSSL_cleanse(plaintext, length);
    return ok;
}

int ohk_scrypt(const uint8_t *passcode, size_t passcode_length, const uint8_t *salt, size_t salt_length,
               uint64_t n, uint32_t r, uint32_t p, uint8_t *out, size_t out_length) {
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "SCRYPT", NULL);
    if (kdf == NULL) return 0;
    EVP_KDF_CTX *ctx = EVP_KDF_CTX_new(kdf);
    EVP_KDF_free(kdf);
    if (ctx == NULL) return 0;
    // scrypt needs 128 * n * r bytes; OpenSSL's default ceiling (32 MiB) is below
    // the parameters the store uses, so allow what these parameters need plus slack.
    uint64_t max_memory = 128 * n * r * (uint64_t)p + 128 * r * (uint64_t)p + (16u << 20);
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, (void *)passcode, passcode_length),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_length),
        OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_N, &n),
        OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_R, &r),
        OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_P, &p),
        OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_MAXMEM, &max_memory),
        OSSL_PARAM_construct_end(),
    };
    int ok = EVP_KDF_derive(ctx, out, out_length, params) == 1;
    EVP_KDF_CTX_free(ctx);
    return ok;
}
