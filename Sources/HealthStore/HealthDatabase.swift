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

    public init(writer: any DatabaseWriter) throws {
        try StoreSchema.migrator.migrate(writer)
        self.writer = writer
        samples = SampleRepository(writer: writer)
        apps = AppRepository(writer: writer)
        grants = GrantRepository(writer: writer)
        accessLog = AccessLogRepository(writer: writer)
        changeFeed = try ChangeFeedRepository(writer: writer)
    }
}
