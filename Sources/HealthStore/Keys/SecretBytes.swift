import CPageCipher

/// Key material in memory the store controls: never copied into Swift arrays,
/// cleansed (OPENSSL_cleanse) when released.
final class SecretBytes {
    let count: Int
    private let storage: UnsafeMutableRawBufferPointer

    /// Zero-filled secret of `count` bytes, to be filled by the caller.
    init(zeroedCount count: Int) {
        self.count = count
        storage = .allocate(byteCount: count, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
    }

    /// Fresh random secret from OpenSSL's CSPRNG.
    static func random(count: Int) throws(StoreOpenError) -> SecretBytes {
        let secret = SecretBytes(zeroedCount: count)
        let ok = secret.withUnsafeMutableBytes { ohk_random_bytes($0, count) }
        guard ok == 1 else { throw .cryptoFailure(operation: "generating a random key") }
        return secret
    }

    func withUnsafeBytes<R, E: Error>(_ body: (UnsafePointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(storage.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    func withUnsafeMutableBytes<R, E: Error>(_ body: (UnsafeMutablePointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(storage.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    deinit {
        ohk_cleanse(storage.baseAddress, count)
        storage.deallocate()
    }
}
