import CPageCipher
import Foundation

/// The data key sealed with AES-256-GCM under a key-encryption key: the machine key
/// or a passcode-derived key. The associated data names the protection (and the
/// scrypt parameters), so a wrap cannot be relabelled.
struct WrappedDataKey: Codable, Equatable {
    enum Protection: Codable, Equatable {
        case machine
        case passcode(PasscodeKDF)
    }

    var protection: Protection
    var nonce: Data
    var ciphertext: Data
    var tag: Data

    static func seal(
        _ dataKey: SecretBytes, protection: Protection, keyEncryptionKey: SecretBytes
    ) throws(StoreOpenError) -> WrappedDataKey {
        var nonce = Data(count: Int(OHK_AEAD_NONCE_BYTES))
        var ciphertext = Data(count: dataKey.count)
        var tag = Data(count: Int(OHK_AEAD_TAG_BYTES))
        let aad = associatedData(for: protection)
        let ok = keyEncryptionKey.withUnsafeBytes { kek in
            dataKey.withUnsafeBytes { plain in
                nonce.withUnsafeMutableBytes { nonceOut in
                    ciphertext.withUnsafeMutableBytes { cipherOut in
                        tag.withUnsafeMutableBytes { tagOut in
                            aad.withUnsafeBytes { aadBytes in
                                ohk_aead_seal(
                                    kek, aadBytes.baseAddress, aadBytes.count, plain, dataKey.count,
                                    nonceOut.baseAddress, cipherOut.baseAddress, tagOut.baseAddress)
                            }
                        }
                    }
                }
            }
        }
        guard ok == 1 else { throw .cryptoFailure(operation: "wrapping the data key") }
        return WrappedDataKey(protection: protection, nonce: nonce, ciphertext: ciphertext, tag: tag)
    }

    /// The data key, or nil if `keyEncryptionKey` is not the one that wrapped it.
    func open(with keyEncryptionKey: SecretBytes) -> SecretBytes? {
        guard nonce.count == Int(OHK_AEAD_NONCE_BYTES), tag.count == Int(OHK_AEAD_TAG_BYTES),
            ciphertext.count == Int(OHK_CIPHER_KEY_BYTES)
        else { return nil }
        let dataKey = SecretBytes(zeroedCount: ciphertext.count)
        let aad = Self.associatedData(for: protection)
        let ok = keyEncryptionKey.withUnsafeBytes { kek in
            dataKey.withUnsafeMutableBytes { plain in
                nonce.withUnsafeBytes { nonceBytes in
                    ciphertext.withUnsafeBytes { cipherBytes in
                        tag.withUnsafeBytes { tagBytes in
                            aad.withUnsafeBytes { aadBytes in
                                ohk_aead_open(
                                    kek, aadBytes.baseAddress, aadBytes.count, cipherBytes.baseAddress,
                                    cipherBytes.count, nonceBytes.baseAddress, tagBytes.baseAddress, plain)
                            }
                        }
                    }
                }
            }
        }
        return ok == 1 ? dataKey : nil
    }

    private static func associatedData(for protection: Protection) -> [UInt8] {
        switch protection {
        case .machine:
            Array("openhealthkit data key v1 machine".utf8)
        case let .passcode(kdf):
            Array("openhealthkit data key v1 passcode scrypt n=\(kdf.n) r=\(kdf.r) p=\(kdf.p)".utf8) + Array(kdf.salt)
        }
    }
}
