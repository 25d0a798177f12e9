/* The two pieces of a SMART Health Card that need C libraries: the payload's raw DEFLATE
 * (zlib), bounded by the caller's buffer, and the ES256 signature check (OpenSSL). No policy:
 * the Swift module SmartHealthCard decides limits and what a result means. */
#pragma once
#include <stddef.h>
#include <stdint.h>

/* Inflates raw DEFLATE (no zlib header) `in` into `out`, writing at most `out_capacity` bytes.
 * Returns 0 and sets *out_length when the stream ends exactly at the input's end; -2 when the
 * output would exceed `out_capacity` (a zip bomb stops here, having written no more than that);
 * -1 for anything malformed (bad stream, truncated, trailing bytes). */
int hc_inflate_raw(const uint8_t *in, size_t in_length, uint8_t *out, size_t out_capacity, size_t *out_length);

/* Checks an ES256 (ECDSA P-256, SHA-256) signature: `signature` is r||s (64 bytes), the key is
 * the point (x, y) of a JWK. Returns 1 when it verifies, 0 when it does not, -1 when the key is
 * not a point of P-256 (or OpenSSL failed). */
int hc_es256_verify(const uint8_t x[32], const uint8_t y[32], const uint8_t *message, size_t message_length,
                    const uint8_t signature[64]);
