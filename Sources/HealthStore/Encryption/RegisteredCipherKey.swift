import CPageCipher
import Synchronization

/// A data key handed to the cipher VFS. Connections name it by `id` in their URI;
/// the VFS keeps only derived subkeys and cleanses them once this handle and every
/// file opened with it are gone.
final class RegisteredCipherKey: Sendable {
    let id: UInt64
    private let released = Mutex(false)

    init(_ dataKey: SecretBytes) throws(StoreOpenError) {
        guard ohk_cipher_vfs_register() == 0 else {
            throw .cryptoFailure(operation: "registering the cipher VFS with SQLite")
        }
        var id: UInt64 = 0
        let rc = dataKey.withUnsafeBytes { ohk_cipher_key_register($0, &id) }
        guard rc == 0 else { throw .cryptoFailure(operation: "deriving page keys") }
        self.id = id
    }

    /// The SQLite URI that opens `path` through the cipher VFS with this key.
    func uri(forDatabaseAt path: String) -> String {
        "file:\(Self.percentEncoded(path))?vfs=\(OHK_CIPHER_VFS_NAME)&\(OHK_CIPHER_KEY_PARAMETER)=\(id)"
    }

    /// Whether page 1 of the database at `path` authenticates under this key.
    func probe(databaseAt path: String) -> DatabaseProbe {
        switch ohk_cipher_probe_database(path, id) {
        case 1: .decrypts
        case 0: .doesNotDecrypt
        case -1: .noDatabase
        default: .unreadable
        }
    }

    enum DatabaseProbe {
        case decrypts, doesNotDecrypt, noDatabase, unreadable
    }

    /// URI paths escape everything but unreserved characters and "/".
    private static func percentEncoded(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }

    /// Drops this handle's hold on the key now rather than at deinit (EncryptedDatabase.close,
    /// which the lock relies on: healthd may still hold the closed EncryptedDatabase). Once the
    /// files are closed too, the registry cleanses the subkeys. Idempotent.
    func release() {
        let first = released.withLock { released in
            defer { released = true }
            return !released
        }
        if first { ohk_cipher_key_release(id) }
    }

    deinit { release() }
}
