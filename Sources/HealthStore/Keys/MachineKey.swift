/// The machine key-encryption key: 32 random bytes in `machine.key` (mode 0600),
/// behind an 8-byte magic so a stray file is not mistaken for a key.
enum MachineKey {
    private static let magic = Array("OHKMKEY1".utf8)
    private static let fileSize = 8 + 32

    static func load(_ layout: StoreLayout) throws(StoreOpenError) -> SecretBytes {
        let path = layout.machineKeyPath
        guard StoreFileIO.exists(path) else { throw .machineKeyMissing(path: path) }
        try KeyFilePermissions.check(path)
        return try StoreFileIO.withContents(of: path, maximumSize: fileSize) { bytes throws(StoreOpenError) in
            guard bytes.count == fileSize, Array(bytes.prefix(8)) == magic else {
                throw .keyFileMalformed(path: path, reason: "not a machine key")
            }
            let key = SecretBytes(zeroedCount: 32)
            key.withUnsafeMutableBytes { $0.update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + 8, count: 32) }
            return key
        }
    }

    /// Loads the machine key, creating it first if the store has none yet.
    static func loadOrCreate(_ layout: StoreLayout) throws(StoreOpenError) -> SecretBytes {
        if StoreFileIO.exists(layout.machineKeyPath) { return try load(layout) }
        let key = try SecretBytes.random(count: 32)
        let file = SecretBytes(zeroedCount: fileSize)
        file.withUnsafeMutableBytes { out in
            out.update(from: magic, count: 8)
            key.withUnsafeBytes { (out + 8).update(from: $0, count: 32) }
        }
        do {
            try file.withUnsafeBytes { (bytes) throws(SystemCallError) in
                try StoreFileIO.writeAtomically(
                    layout.machineKeyPath, bytes: UnsafeRawBufferPointer(start: bytes, count: fileSize))
            }
        } catch {
            throw .directoryUnusable(path: layout.directory, reason: error.reason)
        }
        return key
    }
}
