// Small-secret primitives for key custody: CSPRNG, cleansing and AES-256-GCM over a
// short buffer (wrapping a data key, anchors, pending-journal entries). Key derivation
// (HKDF, scrypt) is kdf.c.
#include <string.h>
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
