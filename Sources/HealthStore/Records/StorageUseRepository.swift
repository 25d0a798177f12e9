import GRDB

/// What each app's rows occupy in the store (`storage_use`, kept by v59's triggers in the
/// transaction of every write) and the user's per-app limits (`app_storage_limits`). The broker
/// decides what to do with them (HealthBroker `StorageQuota`); this only reads and writes rows.
public struct StorageUseRepository: Sendable {
    let writer: any DatabaseWriter

    /// One app's use and, when the user set one, its own limit.
    public struct Entry: Sendable, Equatable {
        public let appID: String
        public let usedBytes: Int64
        /// nil: the broker's default applies.
        public let limitBytes: Int64?

        public init(appID: String, usedBytes: Int64, limitBytes: Int64?) {
            self.appID = appID
            self.usedBytes = usedBytes
            self.limitBytes = limitBytes
        }
    }

    /// `appID`'s use and limit now. An app that has stored nothing uses 0.
    public func entry(appID: String) throws -> Entry {
        try writer.read { db in try Self.entry(db, appID: appID) }
    }

    static func entry(_ db: Database, appID: String) throws -> Entry {
        let used = try Int64.fetchOne(db, sql: "SELECT bytes FROM storage_use WHERE owner = ?", arguments: [appID]) ?? 0
        let limit = try Int64.fetchOne(db, sql: "SELECT limit_bytes FROM app_storage_limits WHERE app_id = ?", arguments: [appID])
        return Entry(appID: appID, usedBytes: max(0, used), limitBytes: limit)
    }

    /// Every installed app's use and limit, by app id.
    public func all() throws -> [Entry] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT a.id, coalesce(u.bytes, 0) AS used, l.limit_bytes FROM apps a
                LEFT JOIN storage_use u ON u.owner = a.id LEFT JOIN app_storage_limits l ON l.app_id = a.id
                ORDER BY a.id
                """).map { Entry(appID: $0["id"], usedBytes: max(0, $0["used"]), limitBytes: $0["limit_bytes"]) }
        }
    }

    /// Sets `appID`'s limit (nil: back to the default). False when no such app is installed.
    @discardableResult
    public func setLimit(appID: String, bytes: Int64?) throws -> Bool {
        try writer.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM apps WHERE id = ?", arguments: [appID]) ?? false else { return false }
            if let bytes {
                try db.execute(sql: """
                    INSERT INTO app_storage_limits (app_id, limit_bytes) VALUES (?, ?)
                    ON CONFLICT(app_id) DO UPDATE SET limit_bytes = excluded.limit_bytes
                    """, arguments: [appID, max(0, bytes)])
            } else {
                try db.execute(sql: "DELETE FROM app_storage_limits WHERE app_id = ?", arguments: [appID])
            }
            return true
        }
    }
}

extension StorageUseRepository {
    /// Every owner's use counted afresh from the rows (v59's backfill), without changing the
    /// store: what the triggers' running count must equal (StorageUseTests).
    public func recounted() throws -> [String: Int64] {
        try writer.write { db in
            var counted: [String: Int64] = [:]
            try db.inSavepoint {
                try db.execute(sql: "DELETE FROM storage_use")
                for statement in try StorageUseSQL.plan(db).backfill { try db.execute(sql: statement) }
                for row in try Row.fetchAll(db, sql: "SELECT owner, bytes FROM storage_use") { counted[row["owner"]] = row["bytes"] }
                return .rollback
            }
            return counted
        }
    }

    /// The running count of every owner, as the triggers keep it.
    public func counted() throws -> [String: Int64] {
        try writer.read { db in
            var counted: [String: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT owner, bytes FROM storage_use") { counted[row["owner"]] = row["bytes"] }
            return counted
        }
    }
}

extension HealthDatabase {
    /// The apps' storage use and limits.
    public var storageUse: StorageUseRepository { StorageUseRepository(writer: writer) }
}
