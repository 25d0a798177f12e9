public import GRDB

/// The broker's view of the store: schema migrated, repositories on top. Knows nothing of
/// encryption: it is handed a `DatabaseWriter` whose connections already go through the
/// page cipher (EncryptedDatabase), or an in-memory one in unit tests.
public final class HealthDatabase: Sendable {
    public let writer: any DatabaseWriter
    public let samples: SampleRepository
    public let apps: AppRepository
    public let grants: GrantRepository
    public let accessLog: AccessLogRepository
    public let changeFeed: ChangeFeedRepository
    public let attachments: AttachmentRepository
    /// Whether a stream's reader lost an object to a deletion since its reading (`StreamVisibility`).
    public let visibleDeletions: VisibleDeletions
    /// What each app stores, counted by this store's writer (`StorageUse`).
    public let storage: StorageUse
    /// The writer connection `storage` is attached to, detached when this goes.
    private let storageAttachment: StorageUse.Attachment?
    /// Whether this open store is still in service, or a lock or key change began closing it:
    /// the admission a stream's question between its messages runs in, which the close waits for.
    public let lifetime = StoreLifetime()
    /// What the migrations run by this opening changed that the user must be told
    /// (`store_upgrade_notices`, v71 on): healthd logs them. Empty when none ran.
    public let upgradeNotices: [String]

    /// `readOnly`: the store cannot be written (`EncryptedDatabase.openReadOnly`), so it is
    /// not migrated; it must already have every migration, or opening fails. `sideReader`: a
    /// connection of its own for reads made while a read of `writer` is open
    /// (`EncryptedDatabase.sideReader`); without one, `visibleDeletions` answers "maybe" always.
    ///
    /// `storage`: the count to seed from this store and charge its writes to — the broker's, which
    /// outlives each opening of the store; a fresh one by default.
    public init(writer: any DatabaseWriter, sideReader: (any DatabaseReader)? = nil, readOnly: Bool = false,
                storage: StorageUse = StorageUse()) throws {
        if readOnly {
            guard try writer.read({ db in try StoreSchema.migrator.hasCompletedMigrations(db) }) else {
                throw StoreOpenError.database(path: "", code: 8,
                                              message: "the store needs a schema upgrade, which cannot run while it is read-only")
            }
            upgradeNotices = []
        } else {
            let appliedBefore = try writer.read { try StoreSchema.migrator.appliedIdentifiers($0) }
            try StoreSchema.migrator.migrate(writer)
            upgradeNotices = try writer.read { db in
                try Row.fetchAll(db, sql: "SELECT migration, notice FROM store_upgrade_notices ORDER BY sequence")
                    .filter { !appliedBefore.contains($0["migration"]) }.map { $0["notice"] }
            }
        }
        self.writer = writer
        // One group-commit queue for every durable write that may batch: saves, deletions and
        // access-log entries share commits (one fsync per group).
        let commits = GroupCommitQueue(writer: writer)
        samples = SampleRepository(writer: writer, commits: commits)
        grants = GrantRepository(writer: writer)
        apps = AppRepository(writer: writer, grantCache: grants.cache)
        accessLog = AccessLogRepository(writer: writer, commits: commits)
        changeFeed = try ChangeFeedRepository(writer: writer, storage: readOnly ? nil : storage)
        attachments = AttachmentRepository(writer: writer, commits: commits)
        visibleDeletions = VisibleDeletions(reader: sideReader)
        self.storage = storage
        if readOnly {
            try writer.read { try storage.seed($0) }
            storageAttachment = nil
        } else {
            storageAttachment = try writer.writeWithoutTransaction { db in
                try storage.seed(db)
                return storage.attach(to: db)
            }
        }
        // No upload outlives the process that received it: a staged one left by a stop or crash
        // mid-upload is dropped here, so nothing half-written stays in the store.
        if !readOnly { try attachments.dropUploads() }
    }

    deinit {
        if let storageAttachment { StorageUse.detach(storageAttachment) }
    }
}
