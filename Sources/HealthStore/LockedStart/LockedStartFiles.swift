import CJournalSeal
import CPageCipher
import Foundation

/// The two files of a locked start, in the store directory, and how the snapshot is sealed.
///
/// - `locked-start.snapshot`: magic `OHKLS001` (8) ‖ generation (8, big-endian) ‖ nonce (12) ‖
///   tag (16) ‖ AES-256-GCM ciphertext of the snapshot (`LockedStartSnapshot`), with magic ‖
///   generation as associated data. The key is HKDF-SHA256 of the machine key (salt
///   `openhealthkit locked-start`, info `openhealthkit locked-start snapshot v1`), so the machine key itself wraps only the data key.
/// - `locked-start.generation`: magic `OHKLG001` ‖ generation (8, big-endian): the store's
///   grants generation, advanced durably *before* every commit that changes apps or grants
///   (`LockedStartWriter`), so that a snapshot older than a committed change is recognised as
///   stale. Not secret; see SECURITY.md for what it does not stop.
///
/// Both are written atomically (temporary file, fsync, rename, fsync of the directory).
enum LockedStartFiles {
    static let snapshotName = "locked-start.snapshot"
    static let generationName = "locked-start.generation"
    private static let snapshotMagic = Array("OHKLS001".utf8)
    private static let generationMagic = Array("OHKLG001".utf8)
    private static let info = Array("openhealthkit locked-start snapshot v1".utf8)
    /// HKDF's salt: fixed (the machine key is already uniformly random), non-empty because
    /// OpenSSL's HKDF refuses an empty one.
    private static let salt = Array("openhealthkit locked-start".utf8)
    private static let headerBytes = 16
    private static let sealOverhead = Int(OHK_AEAD_NONCE_BYTES) + Int(OHK_AEAD_TAG_BYTES)
    /// Apps and grants of one person: kilobytes. The bound keeps a damaged or planted file from
    /// making healthd allocate much before authentication.
    static let maximumSnapshotBytes = 16 << 20

    static func snapshotPath(_ directory: String) -> String { directory + "/" + snapshotName }
    static func generationPath(_ directory: String) -> String { directory + "/" + generationName }

    // MARK: Generation

    /// The store's grants generation as last recorded; 0 when it never was.
    static func generation(_ directory: String) throws(LockedStartError) -> UInt64 {
        let path = generationPath(directory)
        guard let bytes = try read(path, atMost: 16) else { return 0 }
        guard bytes.count == 16, Array(bytes[0 ..< 8]) == generationMagic else {
            throw .fileUnusable(path: path, reason: "not a locked-start generation file")
        }
        return bytes[8 ..< 16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func recordGeneration(_ generation: UInt64, _ directory: String) throws(LockedStartError) {
        try writeAtomically(generationPath(directory), generationMagic + bigEndian(generation))
    }

    // MARK: Snapshot

    static func writeSnapshot(_ plaintext: [UInt8], generation: UInt64, directory: String,
                              machineKey: SecretBytes) throws(LockedStartError) {
        let path = snapshotPath(directory)
        let header = snapshotMagic + bigEndian(generation)
        let key = try snapshotKey(machineKey, path: path)
        var nonce = [UInt8](repeating: 0, count: Int(OHK_AEAD_NONCE_BYTES))
        var tag = [UInt8](repeating: 0, count: Int(OHK_AEAD_TAG_BYTES))
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        let ok = key.withUnsafeBytes { key in
            ohk_aead_seal(key, header, header.count, plaintext, plaintext.count, &nonce, &ciphertext, &tag)
        }
        guard ok == 1 else { throw .fileUnusable(path: path, reason: "OpenSSL failed while sealing it") }
        try writeAtomically(path, header + nonce + tag + ciphertext)
    }

    /// The snapshot's generation and plaintext, authenticated; nil when there is no file.
    static func readSnapshot(_ directory: String, machineKey: SecretBytes) throws(LockedStartError) -> (generation: UInt64, plaintext: [UInt8])? {
        let path = snapshotPath(directory)
        guard let bytes = try read(path, atMost: maximumSnapshotBytes) else { return nil }
        guard bytes.count >= headerBytes + sealOverhead, Array(bytes[0 ..< 8]) == snapshotMagic else {
            throw .snapshotMalformed(path: path, reason: "not a locked-start snapshot")
        }
        let header = Array(bytes[0 ..< headerBytes])
        let generation = bytes[8 ..< 16].reduce(0) { $0 << 8 | UInt64($1) }
        let nonce = Array(bytes[headerBytes ..< headerBytes + Int(OHK_AEAD_NONCE_BYTES)])
        let tag = Array(bytes[headerBytes + nonce.count ..< headerBytes + sealOverhead])
        let ciphertext = Array(bytes[(headerBytes + sealOverhead)...])
        let key = try snapshotKey(machineKey, path: path)
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        let ok = key.withUnsafeBytes { key in
            ohk_aead_open(key, header, header.count, ciphertext, ciphertext.count, nonce, tag, &plaintext)
        }
        guard ok == 1 else { throw .snapshotNotAuthentic(path: path) }
        return (generation, plaintext)
    }

    private static func snapshotKey(_ machineKey: SecretBytes, path: String) throws(LockedStartError) -> SecretBytes {
        let key = SecretBytes(zeroedCount: Int(OHK_CIPHER_KEY_BYTES))
        let derived = machineKey.withUnsafeBytes { secret in
            key.withUnsafeMutableBytes { ohk_hkdf_sha256(secret, machineKey.count, salt, salt.count, info, info.count, $0, key.count) }
        }
        guard derived == 1 else { throw .fileUnusable(path: path, reason: "OpenSSL failed while deriving its key") }
        return key
    }

    // MARK: File I/O

    private static func read(_ path: String, atMost limit: Int) throws(LockedStartError) -> [UInt8]? {
        guard StoreFileIO.exists(path) else { return nil }
        do {
            return try StoreFileIO.withContents(of: path, maximumSize: limit) { Array($0.bindMemory(to: UInt8.self)) }
        } catch {
            throw .fileUnusable(path: path, reason: error.description)
        }
    }

    private static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws(LockedStartError) {
        do {
            try StoreFileIO.writeAtomically(path, contents: bytes)
        } catch {
            throw .fileUnusable(path: path, reason: error.reason)
        }
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0 ..< 8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    }
}
