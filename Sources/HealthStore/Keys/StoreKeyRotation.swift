import GRDB

/// Re-encrypts every page of a store under a new random data key — for `healthctl key rotate`,
/// and for every passcode set, change and removal (`StorePasscode`), which wrap the new key under
/// the new protection: a protection change that kept the old data key would leave any earlier
/// copy of store.keys (a backup, a snapshot, the freed blocks of the replaced file) able to open
/// today's database with the machine key or the old passcode.
///
/// Crash safety: the new key is wrapped into store.keys (as `pending`, next to the
/// current key) before anything is written under it; the re-encrypted copy is
/// written beside the database and fsynced; a rename over `health.sqlite` (then a
/// directory fsync) is the single commit point; store.keys then drops the old key.
/// A kill at any moment leaves a database that decrypts under one of the two keys
/// in store.keys, and the next open or rotation settles which (DataKeyResolver) —
/// with the old protection's secret before the rename, the new one's after it.
public enum StoreKeyRotation {
    /// The store must not be open (this takes the store lock). `passcode` is needed
    /// when a passcode protects the store; the new key is wrapped the same way.
    public static func rotate(directory: String, passcode: Passcode?) throws(StoreOpenError) {
        let layout = try StoreLayout(directory: directory, create: false)
        let lock = try StoreLock(layout)
        defer { withExtendedLifetime(lock) {} }
        let oldKey = try DataKeyResolver(layout: layout).resolve(passcode: passcode, createIfNew: false)
        guard let envelope = try KeyEnvelope.load(layout) else { throw .keyFileMissing(path: layout.keyEnvelopePath) }
        let usesPasscode = if case .passcode = envelope.current.protection { true } else { false }
        try rotate(layout, from: oldKey, wrappingWith: usesPasscode ? passcode : nil)
    }

    /// Rotates to a new key wrapped under `newPasscode` (the machine key when nil), with the
    /// store lock held and any earlier rotation settled: `oldKey` decrypts the database now.
    static func rotate(_ layout: StoreLayout, from oldKey: RegisteredCipherKey,
                       wrappingWith newPasscode: Passcode?) throws(StoreOpenError) {
        guard var envelope = try KeyEnvelope.load(layout) else { throw .keyFileMissing(path: layout.keyEnvelopePath) }
        let newDataKey = try SecretBytes.random(count: 32)
        let newKey = try RegisteredCipherKey(newDataKey)
        let pending = try KeyCustody(layout: layout).wrap(newDataKey, passcode: newPasscode)
        try layout.removeRotatingCopy()
        envelope.pending = pending
        try envelope.save(layout)

        try writeReencryptedCopy(layout, from: oldKey, to: newKey)
        guard newKey.probe(databaseAt: layout.rotatingDatabasePath) == .decrypts else {
            throw .database(path: layout.directory, code: -1, message: "the rotated copy is not encrypted under the new key")
        }
        do {
            try StoreFileIO.syncFile(layout.rotatingDatabasePath)
            // The old database was checkpointed and closed; its WAL index must not
            // be mistaken for the new file's.
            try StoreFileIO.remove(layout.databasePath + "-shm")
            try StoreFileIO.rename(layout.rotatingDatabasePath, to: layout.databasePath)
        } catch {
            throw .directoryUnusable(path: layout.directory, reason: error.reason)
        }
        envelope.current = pending
        envelope.pending = nil
        try envelope.save(layout)
    }

    /// Checkpoints the WAL into the database, then writes a copy of every page
    /// under `newKey` with VACUUM INTO, and closes (which removes the WAL).
    private static func writeReencryptedCopy(
        _ layout: StoreLayout, from oldKey: RegisteredCipherKey, to newKey: RegisteredCipherKey
    ) throws(StoreOpenError) {
        let queue = try CipherDatabaseOpener.openQueue(layout, key: oldKey)
        do {
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                try db.execute(sql: "VACUUM INTO ?", arguments: [newKey.uri(forDatabaseAt: layout.rotatingDatabasePath)])
            }
            try queue.close()
        } catch {
            throw CipherDatabaseOpener.storeError(from: error, layout: layout)
        }
        let walStatus = try? StoreFileIO.status(layout.databasePath + "-wal")
        guard (walStatus?.size ?? 0) == 0 else {
            throw .database(path: layout.directory, code: -1, message: "the WAL was not emptied before rotation")
        }
    }
}
