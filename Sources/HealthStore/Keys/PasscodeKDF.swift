import CPageCipher
import Foundation

/// scrypt parameters of a passcode wrap, stored next to it so they can be raised
/// later without breaking existing stores.
///
/// Defaults: N = 2^17, r = 8, p = 1, which needs 128 MiB of memory and about half a
/// second on a 2020s laptop core: cheap once per unlock, costly per guess (memory
/// makes GPU/ASIC guessing expensive). 16-byte random salt per wrap.
struct PasscodeKDF: Codable, Equatable {
    var salt: Data
    var n: UInt64
    var r: UInt32
    var p: UInt32

    static let defaultN: UInt64 = 1 << 17
    static let defaultR: UInt32 = 8
    static let defaultP: UInt32 = 1

    static func fresh() throws(StoreOpenError) -> PasscodeKDF {
        var salt = Data(count: 16)
        let ok = salt.withUnsafeMutableBytes { ohk_random_bytes($0.baseAddress, 16) }
        guard ok == 1 else { throw .cryptoFailure(operation: "generating a passcode salt") }
        return PasscodeKDF(salt: salt, n: defaultN, r: defaultR, p: defaultP)
    }

    /// The key-encryption key for `passcode`.
    func deriveKey(from passcode: Passcode) throws(StoreOpenError) -> SecretBytes {
        let kek = SecretBytes(zeroedCount: 32)
        let ok = kek.withUnsafeMutableBytes { out in
            salt.withUnsafeBytes { saltBytes in
                passcode.withUnsafeBytes { pass in
                    ohk_scrypt(
                        pass.baseAddress, pass.count, saltBytes.baseAddress, saltBytes.count,
                        n, r, p, out, 32)
                }
            }
        }
        guard ok == 1 else { throw .cryptoFailure(operation: "deriving a key from the passcode (scrypt)") }
        return kek
    }
}
