import CPageCipher
import GRDB

/// Opens GRDB connections through the cipher VFS and turns SQLite failures into
/// typed store errors.
enum CipherDatabaseOpener {
    /// The writer connection's page cache, in KiB (an upper bound: SQLite fills it as pages are used).
    static let writerCacheKiB = 32 << 10

    /// GRDB's own default, for stores opened outside healthd (tools, tests). healthd sizes its
    /// pool from its limits instead (`BrokerLimits.storeReaders`).
    static let defaultMaximumReaderCount = 5

    /// A pool in WAL mode whose writer commits with synchronous=FULL and that opens at most
    /// `readers` reader connections (lazily, as concurrent reads need them).
    static func openPool(_ layout: StoreLayout, key: RegisteredCipherKey, readers: Int) throws(StoreOpenError) -> DatabasePool {
        ohkDiscardLastFailure()
        do {
            var config = configuration()
            config.maximumReaderCount = max(1, readers)
            let pool = try DatabasePool(path: key.uri(forDatabaseAt: layout.databasePath), configuration: config)
            // GRDB sets synchronous=NORMAL when it enables WAL; a save is only
            // acknowledged once durable, so the writer goes back to FULL.
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                // The writer's page cache: `writerCacheKiB` instead of SQLite's 2 MiB. An import
                // batch inserts thousands of keys at random places of the sync-identifier index;
                // with the default cache those leaf pages were evicted between inserts and read
                // from disk and decrypted again. Only the writer: readers keep the default, so the
                // pool's memory does not grow with its connections.
                try db.execute(sql: "PRAGMA cache_size = -\(writerCacheKiB)")
                // Deleted rows are overwritten with zeros, b-tree cells and freed pages (overflow
                // pages of large values included), so a later holder of the key does not find
                // what the user deleted in the database's free space. secure_delete is a setting
                // of the connection: the writer is the only connection of the pool that deletes.
                try db.execute(sql: "PRAGMA secure_delete = ON")
                // Reads page 1 and the schema now, so damage is reported at open.
                _ = try Int.fetchOne(db, sql: "PRAGMA schema_version")
            }
            return pool
        } catch {
            throw storeError(from: error, layout: layout)
        }
    }

    /// The background checkpointer's own connection to the store a pool opened, with the pool's
    /// checkpoint hook installed (WALCheckpointer). synchronous=FULL: the checkpoint syncs the WAL
    /// before copying and the database before the WAL may be reused.
    static func openCheckpointer(_ layout: StoreLayout, key: RegisteredCipherKey, for pool: DatabasePool,
                                 policy: WALCheckpointing) throws(StoreOpenError) -> WALCheckpointer {
        do {
            var config = configuration()
            config.journalMode = .default  // already WAL: the pool set it
            let connection = try DatabaseQueue(path: key.uri(forDatabaseAt: layout.databasePath), configuration: config)
            try connection.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            let checkpointer = WALCheckpointer(connection: connection, policy: policy)
            do {
                try checkpointer.install(on: pool)
            } catch {
                try? checkpointer.close()
                throw error
            }
            return checkpointer
        } catch {
            throw storeError(from: error, layout: layout)
        }
    }

    /// One read-only connection beside a pool's readers, for a short read made while the caller
    /// holds a read transaction of the pool open (`VisibleDeletions`: a stream asks, mid-answer,
    /// whether anything it could see was deleted since its reading). GRDB forbids a second pool
    /// read from inside a read, and a second reader taken from the pool could wait forever for
    /// readers held by streams that are themselves waiting; this connection waits for nothing.
    static func openSideReader(_ layout: StoreLayout, key: RegisteredCipherKey) throws(StoreOpenError) -> DatabaseQueue {
        do {
            var config = configuration()
            config.readonly = true
            config.journalMode = .default  // already WAL: the pool set it
            return try DatabaseQueue(path: key.uri(forDatabaseAt: layout.databasePath), configuration: config)
        } catch {
            throw storeError(from: error, layout: layout)
        }
    }

    /// A pool that never writes (`EncryptedDatabase.openReadOnly`): the store must already be
    /// in WAL mode, which every store this code created is.
    static func openReadOnlyPool(_ layout: StoreLayout, key: RegisteredCipherKey, readers: Int) throws(StoreOpenError) -> DatabasePool {
        ohkDiscardLastFailure()
        do {
            var config = configuration()
            config.readonly = true
            config.maximumReaderCount = max(1, readers)
            let pool = try DatabasePool(path: key.uri(forDatabaseAt: layout.databasePath), configuration: config)
            // Reads page 1 and the schema now, so damage is reported at open.
            _ = try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") }
            return pool
        } catch {
            throw storeError(from: error, layout: layout)
        }
    }

    /// A single connection (used by key rotation), not switched to WAL.
    static func openQueue(_ layout: StoreLayout, key: RegisteredCipherKey) throws(StoreOpenError) -> DatabaseQueue {
        ohkDiscardLastFailure()
        do {
            var config = configuration()
            config.journalMode = .default
            return try DatabaseQueue(path: key.uri(forDatabaseAt: layout.databasePath), configuration: config)
        } catch {
            throw storeError(from: error, layout: layout)
        }
    }

    static func configuration() -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            var message: UnsafePointer<CChar>?
            let rc = ohk_cipher_connection_prepare(UnsafeMutableRawPointer(db.sqliteConnection), &message)
            guard rc == 0 else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: rc), message: message.map { String(cString: $0) })
            }
            db.add(function: SampleSQL.quantityConversion)
            db.add(function: SampleSQL.uuidBlob)
            // Stops an app call's statement past its budget, when its call ended, or when the
            // store drains (StatementBudget).
            try StatementWatch.install(on: db)
        }
        return config
    }

    /// Maps an error from GRDB: an authentication failure the VFS recorded on this
    /// thread becomes `.corrupt` naming the file and page; other SQLite errors keep
    /// their code and SQLite's message (which never includes row values, since
    /// GRDB hides statement arguments).
    static func storeError(from error: any Error, layout: StoreLayout) -> StoreOpenError {
        if let failure = takeLastFailure() { return .corrupt(path: layout.directory, detail: failure) }
        if let error = error as? StoreOpenError { return error }
        if let error = error as? DatabaseError {
            return .database(
                path: layout.directory, code: error.extendedResultCode.rawValue, message: error.message ?? "no message")
        }
        return .database(path: layout.directory, code: -1, message: String(describing: type(of: error)))
    }

    /// "WAL frame 12 of /x/health.sqlite-wal failed authentication", or nil.
    static func takeLastFailure() -> String? {
        var failure = ohk_cipher_failure()
        guard ohk_cipher_take_last_failure(&failure) == 1 else { return nil }
        let path = withUnsafeBytes(of: failure.path) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let what = switch failure.file_kind {
        case 1: "database page"
        case 2: "WAL frame"
        case 3: "rollback-journal record at byte"
        default: "temporary-file block"
        }
        return "\(what) \(failure.unit) of \(path.isEmpty ? "a temporary file" : path) failed authentication"
    }

    private static func ohkDiscardLastFailure() { _ = takeLastFailure() }
}
