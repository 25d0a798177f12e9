#include "health_card.h"

#include <string.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>

/* The JWK's point as an EVP_PKEY of P-256; NULL when it is not a point of the curve. */
static EVP_PKEY *p256_public_key(const uint8_t x[32], const uint8_t y[32]) {
    uint8_t point[65];
    point[0] = 0x04; /* uncompressed */
    memcpy(point + 1, x, 32);
    memcpy(point + 33, y, 32);
    char group[] = "prime256v1";
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0),
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point),
        OSSL_PARAM_construct_end(),
    };
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (context == NULL || EVP_PKEY_fromdata_init(context) <= 0 ||
        EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) <= 0) {
        EVP_PKEY_CTX_free(context);
        return NULL;
    }
    EVP_PKEY_CTX_free(context);
    /* fromdata decodes the point; the public check also rejects one off the curve. */
    EVP_PKEY_CTX *check = EVP_PKEY_CTX_new(key, NULL);
    int valid = check != NULL && EVP_PKEY_public_check(check) == 1;
    EVP_PKEY_CTX_free(check);
    if (!valid) {
        EVP_PKEY_free(key);
        return NULL;
    }
    return key;
}

int hc_es256_verify(const uint8_t x[32], const uint8_t y[32], const uint8_t *message, size_t message_length,
                    const uint8_t signature[64]) {
    EVP_PKEY *key = p256_public_key(x, y);
    if (key == NULL) return -1;
    int result = -1;
    unsigned char *der = NULL;
    EVP_MD_CTX *digest = NULL;
    /* JWS carries r||s; OpenSSL verifies the DER form. */
    ECDSA_SIG *sig = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(signature, 32, NULL);
    BIGNUM *s = BN_bin2bn(signature + 32, 32, NULL);
    if (sig == NULL || r == NULL || s == NULL || ECDSA_SIG_set0(sig, r, s) != 1) {
        BN_free(r);
        BN_free(s);
        goto done;
    }
    int der_length = i2d_ECDSA_SIG(sig, &der);
    if (der_length <= 0) goto done;
    digest = EVP_MD_CTX_new();
    if (digest == NULL || EVP_DigestVerifyInit(digest, NULL, EVP_sha256(), NULL, key) != 1) goto done;
    result = EVP_DigestVerify(digest, der, (size_t)der_length, message, message_length) == 1 ? 1 : 0;
done:
    EVP_MD_CTX_free(digest);
    OPENSSL_free(der);
    ECDSA_SIG_free(sig);
    EVP_PKEY_free(key);
    return result;
}
