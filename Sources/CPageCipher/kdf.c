// Key derivation, through OpenSSL's EVP_KDF: HKDF-SHA256 (RFC 5869) for the page subkeys
// (key_registry.c) and the pending journal's entry keys (HealthStore's PendingJournalSeal), and
// scrypt (RFC 7914) for passcodes. Every key the package derives comes from the library's
// implementation through the one fetch/derive/free path below; none from a copy of it.
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include "CPageCipher.h"

/// Runs OpenSSL's KDF `name` with `params` into `out`; `out` is cleansed on failure, so a
/// caller never goes on with part of a key.
static int kdf_derive(const char *name, const OSSL_PARAM params[], uint8_t *out, size_t out_length) {
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, name, NULL);
    EVP_KDF_CTX *ctx = kdf != NULL ? EVP_KDF_CTX_new(kdf) : NULL;
    EVP_KDF_free(kdf);
    int ok = ctx != NULL && EVP_KDF_derive(ctx, out, out_length, params) == 1;
    EVP_KDF_CTX_free(ctx);
    if (!ok && out != NULL) OPENSSL_cleanse(out, out_length);
    return ok;
}

int ohk_hkdf_sha256(const uint8_t *secret, size_t secret_length, const uint8_t *salt, size_t salt_length,
                    const uint8_t *info, size_t info_length, uint8_t *out, size_t out_length) {
    if (secret == NULL || secret_length == 0 || out == NULL
        || (salt == NULL && salt_length > 0) || (info == NULL && info_length > 0)) return 0;
    OSSL_PARAM params[5];
    size_t count = 0;
    params[count++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, "SHA256", 0);
    params[count++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)secret, secret_length);
    // An empty salt or info is left out, not passed empty: RFC 5869 reads a missing salt as
    // HashLen zero bytes (the page subkeys have always been derived so), and OpenSSL 3.0
    // refuses an octet-string parameter whose data pointer is NULL.
    if (salt_length > 0) params[count++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_length);
    if (info_length > 0) params[count++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, info_length);
    params[count] = OSSL_PARAM_construct_end();
    return kdf_derive("HKDF", params, out, out_length);
}

int ohk_scrypt(const uint8_t *passcode, size_t passcode_length, const uint8_t *salt, size_t salt_length,
               uint64_t n, uint32_t r, uint32_t p, uint8_t *out, size_t out_length) {
    // The caller bounds the parameters (PasscodeKDF+Bounds); this only keeps the memory
    // ceiling below from wrapping around for values no caller passes.
    if (n == 0 || r == 0 || p == 0 || n > ((uint64_t)1 << 32) || (uint64_t)r * p > ((uint64_t)1 << 20)) return 0;
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
    return kdf_derive("SCRYPT", params, out, out_length);
}
