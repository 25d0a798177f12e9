import CJournalSeal
import CPageCipher

/// The sealing of one pending-journal entry to the journal's public key, so that a locked broker,
/// which holds only that public key, can write entries it cannot read back:
///
/// - an ephemeral X25519 key pair per entry; `shared = X25519(ephemeral private, journal public)`;
/// - `key = HKDF-SHA256(shared, salt: ephemeral public ‖ journal public, info: "openhealthkit
///   pending journal v1")`, used for this one entry;
/// - AES-256-GCM under `key` (random 96-bit nonce), with the entry's position (`aad`: file
///   generation and sequence) as associated data, so entries cannot be reordered, moved between
///   journals or replayed.
///
/// Sealed layout: ephemeral public (32) ‖ nonce (12) ‖ tag (16) ‖ ciphertext.
/// The ephemeral private key and the derived key live in `SecretBytes` (cleansed on release).
enum PendingJournalSeal {
    static let keyBytes = Int(OHK_X25519_KEY_BYTES)
    static let overhead = keyBytes + Int(OHK_AEAD_NONCE_BYTES) + Int(OHK_AEAD_TAG_BYTES)
    private static let info = Array("openhealthkit pending journal v1".utf8)

    /// A new journal key pair: the private half in cleansed memory, the public half as bytes.
    static func keyPair() throws(PendingJournalError) -> (privateKey: SecretBytes, publicKey: [UInt8]) {
        let privateKey = SecretBytes(zeroedCount: keyBytes)
        var publicKey = [UInt8](repeating: 0, count: keyBytes)
        let ok = privateKey.withUnsafeMutableBytes { ohk_x25519_keypair($0, &publicKey) }
        guard ok == 1 else { throw .cryptoFailure(operation: "generating the pending journal's key pair") }
        return (privateKey, publicKey)
    }

    static func seal(_ plaintext: [UInt8], to journalPublicKey: [UInt8], aad: [UInt8]) throws(PendingJournalError) -> [UInt8] {
        let (ephemeralPrivate, ephemeralPublic) = try keyPair()
        let key = try entryKey(ownPrivate: ephemeralPrivate, peerPublic: journalPublicKey,
                               ephemeralPublic: ephemeralPublic, journalPublic: journalPublicKey)
        var nonce = [UInt8](repeating: 0, count: Int(OHK_AEAD_NONCE_BYTES))
        var tag = [UInt8](repeating: 0, count: Int(OHK_AEAD_TAG_BYTES))
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        let ok = key.withUnsafeBytes { key in
            ohk_aead_seal(key, aad, aad.count, plaintext, plaintext.count, &nonce, &ciphertext, &tag)
        }
        guard ok == 1 else { throw .cryptoFailure(operation: "sealing a pending-journal entry") }
        return ephemeralPublic + nonce + tag + ciphertext
    }

    /// The plaintext of `sealed`, or nil when it does not authenticate under this key and `aad`.
    static func open(_ sealed: ArraySlice<UInt8>, privateKey: SecretBytes, publicKey: [UInt8],
                     aad: [UInt8]) throws(PendingJournalError) -> [UInt8]? {
        guard sealed.count >= overhead else { return nil }
        let start = sealed.startIndex
        let ephemeralPublic = Array(sealed[start ..< start + keyBytes])
        let nonce = Array(sealed[start + keyBytes ..< start + keyBytes + Int(OHK_AEAD_NONCE_BYTES)])
        let tag = Array(sealed[start + keyBytes + nonce.count ..< start + overhead])
        let ciphertext = Array(sealed[(start + overhead)...])
        let key: SecretBytes
        do {
            key = try entryKey(ownPrivate: privateKey, peerPublic: ephemeralPublic,
                               ephemeralPublic: ephemeralPublic, journalPublic: publicKey)
        } catch {
            return nil  // a low-order ephemeral key: not an entry this journal's sealer wrote
        }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        let ok = key.withUnsafeBytes { key in
            ohk_aead_open(key, aad, aad.count, ciphertext, ciphertext.count, nonce, tag, &plaintext)
        }
        return ok == 1 ? plaintext : nil
    }

    private static func entryKey(ownPrivate: SecretBytes, peerPublic: [UInt8], ephemeralPublic: [UInt8],
                                 journalPublic: [UInt8]) throws(PendingJournalError) -> SecretBytes {
        guard peerPublic.count == keyBytes, journalPublic.count == keyBytes else {
            throw .cryptoFailure(operation: "reading a pending-journal key (wrong length)")
        }
        let shared = SecretBytes(zeroedCount: keyBytes)
        let agreed = ownPrivate.withUnsafeBytes { own in
            shared.withUnsafeMutableBytes { ohk_x25519_shared(own, peerPublic, $0) }
        }
        guard agreed == 1 else { throw .cryptoFailure(operation: "agreeing a pending-journal entry key") }
        let salt = ephemeralPublic + journalPublic
        let key = SecretBytes(zeroedCount: Int(OHK_CIPHER_KEY_BYTES))
        let derived = shared.withUnsafeBytes { shared in
            key.withUnsafeMutableBytes { ohk_hkdf_sha256(shared, keyBytes, salt, salt.count, info, info.count, $0, key.count) }
        }
        guard derived == 1 else { throw .cryptoFailure(operation: "deriving a pending-journal entry key") }
        return key
    }
}
