// CJournalSeal: the public-key half of the pending journal's sealing (X25519, OpenSSL). The
// rest is CPageCipher's: the entry key's HKDF-SHA256 (ohk_hkdf_sha256, the one the page
// subkeys use) and AES-256-GCM (ohk_aead_seal/ohk_aead_open).
// Exposes no OpenSSL types; every function returns 1 on success, 0 on failure.
#ifndef CJOURNALSEAL_H
#define CJOURNALSEAL_H

#include <stddef.h>
#include <stdint.h>

#define OHK_X25519_KEY_BYTES 32

/// A fresh X25519 key pair from OpenSSL's CSPRNG.
int ohk_x25519_keypair(uint8_t private_key[OHK_X25519_KEY_BYTES], uint8_t public_key[OHK_X25519_KEY_BYTES]);

/// The X25519 shared secret of `private_key` and `peer_public_key`. Fails for a low-order peer
/// key (an all-zero secret), which no honest sealer produces.
int ohk_x25519_shared(const uint8_t private_key[OHK_X25519_KEY_BYTES],
                      const uint8_t peer_public_key[OHK_X25519_KEY_BYTES],
                      uint8_t shared[OHK_X25519_KEY_BYTES]);

#endif
