public import GRDB

/// The broker's encrypted, durable store: `health.sqlite` in WAL mode with
/// synchronous=FULL, every page of it, of its WAL and of SQLite's temporary files
/// sealed with AES-256-GCM by the cipher VFS (see Sources/CPageCipher/README.md),
/// under a data key kept wrapped in `store.keys`.
///
/// Holding this object holds an exclusive lock on the store directory; keep it
/// alive for as long as `writer` is used.
public final class EncryptedDatabase: Sendable {
    /// A DatabasePool: one writer and concurrent readers, which WAL mode allows.
    public let writer: any DatabaseWriter
    public var databasePath: String { layout.databasePath }
    /// GRDB's default reader count, for stores opened outside healthd.
    public static let defaultMaximumReaderCount = CipherDatabaseOpener.defaultMaximumReaderCount
    /// How many reads may run at once on this store (the pool's reader connections).
    public var maximumReaderCount: Int { pool.configuration.maximumReaderCount }
    private let layout: StoreLayout
    private let pool: DatabasePool
    private let key: RegisteredCipherKey
    private let lock: StoreLock
    /// Runs WAL checkpoints off the request path; nil for a read-only store.
    private let checkpointer: WALCheckpointer?
    /// A read-only connection of its own for reads made while a pool read is open
    /// (`CipherDatabaseOpener.openSideReader`); hand it to `HealthDatabase(writer:sideReader:)`.
    public let sideReader: any DatabaseReader
    private let sideQueue: DatabaseQueue

    /// Why the store was opened read-only (its file system was full at start), or nil when it
    /// is writable. Every write then fails with SQLITE_READONLY; reads work.
    public let readOnlyReason: String?

    private init(pool: DatabasePool, sideReader: DatabaseQueue, key: RegisteredCipherKey, lock: StoreLock, layout: StoreLayout,
                 checkpointer: WALCheckpointer? = nil, readOnlyReason: String? = nil) {
        self.pool = pool
        self.sideQueue = sideReader
        self.sideReader = sideReader
        self.checkpointer = checkpointer
        self.writer = pool
        self.key = key
        self.lock = lock
        self.layout = layout
        self.readOnlyReason = readOnlyReason
    }

    /// Opens (creating on first use) the encrypted store in `directory`: key files +
    /// `health.sqlite` (WAL mode, synchronous=FULL so a committed transaction is
    /// durable), every connection through the cipher VFS.
    ///
    /// `passcode` is needed only when a passcode protects the store; given on first
    /// use, it protects the new store instead of the machine key.
    ///
    /// `checkpointing`: when WAL checkpoints run in the background and when the writer must run
    /// one itself (WALCheckpointer). `maximumReaderCount`: how many reads may run at once (each on
    /// a connection of its own, opened when first needed); a read beyond waits for one to finish.
    /// healthd passes `BrokerLimits.storeReaders`, sized to the large queries it lets hold a reader.
    public static func open(directory: String, passcode: Passcode? = nil,
                            checkpointing: WALCheckpointing = .standard,
                            maximumReaderCount: Int = defaultMaximumReaderCount) throws(StoreOpenError) -> EncryptedDatabase {
        let layout = try StoreLayout(directory: directory, create: true)
        let lock = try StoreLock(layout)
        let key = try DataKeyResolver(layout: layout).resolve(passcode: passcode, createIfNew: true)
        let pool = try CipherDatabaseOpener.openPool(layout, key: key, readers: maximumReaderCount)
        let checkpointer: WALCheckpointer
        let sideReader: DatabaseQueue
        do throws(StoreOpenError) {
            checkpointer = try CipherDatabaseOpener.openCheckpointer(layout, key: key, for: pool, policy: checkpointing)
            do throws(StoreOpenError) {
                sideReader = try CipherDatabaseOpener.openSideReader(layout, key: key)
            } catch {
                try? checkpointer.close()
                throw error
            }
        } catch {
            try? pool.close()
            throw error
        }
        return EncryptedDatabase(pool: pool, sideReader: sideReader, key: key, lock: lock, layout: layout, checkpointer: checkpointer)
    }

    deinit {
        // Its connection uses the key; the key and the lock go with this object. The pool may
        // live on in a HealthDatabase: its writer then checkpoints by itself.
        try? checkpointer?.close()
    }

    /// Background checkpoints since opening (zero for a read-only store).
    public var checkpointStatistics: WALCheckpointStatistics { checkpointer?.statistics ?? WALCheckpointStatistics() }

    /// Tests: the background checkpointer, to hold and release it.
    var backgroundCheckpointer: WALCheckpointer? { checkpointer }

    /// Opens an existing store without writing to it, for a start while its file system is
    /// full (opening read-write appends to the WAL, which fails with SQLITE_FULL). `reason` is
    /// what `readOnlyReason` reports. Nothing is created: a missing store is an error.
    public static func openReadOnly(directory: String, passcode: Passcode? = nil, reason: String,
                                    maximumReaderCount: Int = defaultMaximumReaderCount) throws(StoreOpenError) -> EncryptedDatabase {
        let layout = try StoreLayout(directory: directory, create: false)
        let lock = try StoreLock(layout)
        let key = try DataKeyResolver(layout: layout).resolve(passcode: passcode, createIfNew: false)
        let pool = try CipherDatabaseOpener.openReadOnlyPool(layout, key: key, readers: maximumReaderCount)
        let sideReader: DatabaseQueue
        do throws(StoreOpenError) {
            sideReader = try CipherDatabaseOpener.openSideReader(layout, key: key)
        } catch {
            try? pool.close()
            throw error
        }
        return EncryptedDatabase(pool: pool, sideReader: sideReader, key: key, lock: lock, layout: layout, readOnlyReason: reason)
    }

    /// Closes every connection (checkpointing the WAL), then releases the store lock, so
    /// the key files may be changed (StoreKeyRotation, StorePasscode) and the store
    /// reopened. If SQLite refuses to close, the store stays open and locked.
    public func close() throws(StoreOpenError) {
        do {
            // First: its connection holds the store open and uses the key.
            try checkpointer?.close()
            try sideQueue.close()
            try pool.close()
        } catch {
            throw CipherDatabaseOpener.storeError(from: error, layout: layout)
        }
        // Every file is closed: the key's subkeys are cleansed now, not when this object goes.
        key.release()
        lock.release()
    }

    /// Reads every page from disk (`PRAGMA integrity_check` after dropping cached
    /// pages) and throws `.corrupt` naming the first page that fails authentication
    /// or SQLite's own findings.
    public func checkIntegrity() throws(StoreOpenError) {
        let layout = layout
        let findings: [String]
        do {
            pool.releaseMemory()
            findings = try pool.read { db in
                // Mapped inside the closure: the VFS records the failing page on the
                // thread that ran the statement.
                do {
                    return try String.fetchAll(db, sql: "PRAGMA integrity_check")
                } catch {
                    throw CipherDatabaseOpener.storeError(from: error, layout: layout)
                }
            }
        } catch {
            throw CipherDatabaseOpener.storeError(from: error, layout: layout)
        }
        guard findings == ["ok"] else {
            throw .corrupt(path: layout.directory, detail: "integrity check: " + findings.prefix(3).joined(separator: "; "))
        }
    }
}
