// AES-256-GCM for one page (or one temporary-file block): a fresh random nonce per
// seal (drawn a batch at a time: nonce_batch.c), nonce and tag stored in the unit's last
// 28 bytes, and the file kind and the unit's position bound in as associated data so
// units cannot be swapped or moved.
#include <string.h>
#include "cipher_internal.h"

enum { AAD_BYTES = 16 };

static void make_aad(uint8_t aad[AAD_BYTES], file_kind kind, uint64_t unit) {
    memcpy(aad, "OHK1", 4);
    aad[4] = 0; aad[5] = 0; aad[6] = 0; aad[7] = (uint8_t)kind;
    for (int i = 0; i < 8; i++) aad[8 + i] = (uint8_t)(unit >> (56 - 8 * i));
}

int page_codec_init(page_codec *codec, const uint8_t key[OHK_CIPHER_KEY_BYTES]) {
    nonce_batch_init(&codec->nonces);
    codec->seal = EVP_CIPHER_CTX_new();
    codec->open = EVP_CIPHER_CTX_new();
    if (codec->seal == NULL || codec->open == NULL) return 0;
    // Keying once here expands the AES key schedule once per file, not per page.
    if (EVP_EncryptInit_ex(codec->seal, EVP_aes_256_gcm(), NULL, key, NULL) != 1) return 0;
    if (EVP_DecryptInit_ex(codec->open, EVP_aes_256_gcm(), NULL, key, NULL) != 1) return 0;
    return 1;
}

void page_codec_free(page_codec *codec) {
    // EVP_CIPHER_CTX_free cleanses the expanded key.
    EVP_CIPHER_CTX_free(codec->seal);
    EVP_CIPHER_CTX_free(codec->open);
    codec->seal = NULL;
    codec->open = NULL;
    nonce_batch_free(&codec->nonces);
}

int page_codec_seal(page_codec *codec, file_kind kind, uint64_t unit,
                    const uint8_t *plain, uint8_t *out, int length) {
    int body = length - RESERVED_BYTES, produced = 0, tail = 0;
    uint8_t aad[AAD_BYTES];
    uint8_t *nonce = out + body, *tag = out + body + NONCE_BYTES;
    make_aad(aad, kind, unit);
    if (!nonce_batch_take(&codec->nonces, nonce)) return 0;
    if (EVP_EncryptInit_ex(codec->seal, NULL, NULL, NULL, nonce) != 1) return 0;
    if (EVP_EncryptUpdate(codec->seal, NULL, &produced, aad, AAD_BYTES) != 1) return 0;
    if (EVP_EncryptUpdate(codec->seal, out, &produced, plain, body) != 1) return 0;
    if (EVP_EncryptFinal_ex(codec->seal, out + produced, &tail) != 1) return 0;
    return EVP_CIPHER_CTX_ctrl(codec->seal, EVP_CTRL_GCM_GET_TAG, TAG_BYTES, tag) == 1;
}

int page_codec_open(page_codec *codec, file_kind kind, uint64_t unit,
                    const uint8_t *sealed, uint8_t *out, int length) {
    int body = length - RESERVED_BYTES, produced = 0, tail = 0;
    uint8_t aad[AAD_BYTES], tag[TAG_BYTES];
    const uint8_t *nonce = sealed + body;
    make_aad(aad, kind, unit);
    // Copy the tag first: `out` may alias `sealed`.
    memcpy(tag, sealed + body + NONCE_BYTES, TAG_BYTES);
    int ok = EVP_DecryptInit_ex(codec->open, NULL, NULL, NULL, nonce) == 1
        && EVP_DecryptUpdate(codec->open, NULL, &produced, aad, AAD_BYTES) == 1
        && EVP_DecryptUpdate(codec->open, out, &produced, sealed, body) == 1
        && EVP_CIPHER_CTX_ctrl(codec->open, EVP_CTRL_GCM_SET_TAG, TAG_BYTES, tag) == 1
        && EVP_DecryptFinal_ex(codec->open, out + produced, &tail) == 1;
    if (!ok) {
        // Never hand unauthenticated bytes to SQLite.
        OPENSSL_cleanse(out, (size_t)length);
        return 0;
    }
    memset(out + body, 0, RESERVED_BYTES);
    return 1;
}

int page_reserved_area_is_clear(const uint8_t *page) {
    uint8_t any = 0;
    for (int i = SEALED_BYTES; i < PAGE_SIZE_BYTES; i++) any |= page[i];
    return any == 0;
}
