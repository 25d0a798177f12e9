import Foundation

/// Contents of `store.keys`: the wrapped data key, and while a rotation is under
/// way the wrapped key it is rotating to. JSON, so a person can see what protects
/// the store; it holds no plaintext key.
struct KeyEnvelope: Codable, Equatable {
    static let currentFormat = 1
    static let maximumFileSize = 64 * 1024

    var format: Int
    var current: WrappedDataKey
    /// Set before a rotation writes anything under the new key; cleared once the
    /// rotated database has replaced the old one.
    var pending: WrappedDataKey?

    init(current: WrappedDataKey, pending: WrappedDataKey? = nil) {
        format = Self.currentFormat
        self.current = current
        self.pending = pending
    }

    /// nil when the store has no key file yet.
    static func load(_ layout: StoreLayout) throws(StoreOpenError) -> KeyEnvelope? {
        let path = layout.keyEnvelopePath
        guard StoreFileIO.exists(path) else { return nil }
        try KeyFilePermissions.check(path)
        let envelope = try StoreFileIO.withContents(of: path, maximumSize: maximumFileSize) {
            bytes throws(StoreOpenError) in
            do {
                return try JSONDecoder().decode(KeyEnvelope.self, from: Data(bytes))
            } catch {
                throw .keyFileMalformed(path: path, reason: "not a store key envelope")
            }
        }
        guard envelope.format == currentFormat else {
            throw .keyFileMalformed(path: path, reason: "format \(envelope.format) is not supported by this version")
        }
        // Its scrypt parameters are the file's to choose until a key authenticates it: bounded
        // here, where store.keys is read, before any derivation runs.
        for wrap in [envelope.current] + (envelope.pending.map { [$0] } ?? []) {
            if case let .passcode(kdf) = wrap.protection { try kdf.checkBounds(path: path) }
        }
        return envelope
    }

    func save(_ layout: StoreLayout) throws(StoreOpenError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let bytes: Data
        do {
            bytes = try encoder.encode(self)
        } catch {
            throw .cryptoFailure(operation: "encoding the key envelope")
        }
        do throws(SystemCallError) {
            try StoreFileIO.writeAtomically(layout.keyEnvelopePath, contents: [UInt8](bytes))
        } catch {
            throw .directoryUnusable(path: layout.directory, reason: error.reason)
        }
    }
}
