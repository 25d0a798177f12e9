public import Foundation
import GRDB
public import HealthModel

/// Apps' background-delivery registrations: one per app and type, with its frequency.
public struct BackgroundDeliveryRepository: Sendable {
    let writer: any DatabaseWriter

    /// Enables (or changes the frequency of) `registration`. The app must be installed.
    public func enable(_ registration: BackgroundDeliveryRegistration) throws {
        try writer.write { try Self.enable(registration, $0) }
    }

    /// `enable` inside the caller's transaction (also the pending journal's merge).
    static func enable(_ registration: BackgroundDeliveryRegistration, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO background_deliveries (app_id, type_identifier, frequency, enabled_us) VALUES (?, ?, ?, ?)
            ON CONFLICT(app_id, type_identifier) DO UPDATE SET
                frequency = excluded.frequency, enabled_us = excluded.enabled_us
            """, arguments: [registration.appID, registration.typeIdentifier, registration.frequency.rawValue,
                             registration.enabledDate.microsecondsSince1970])
    }

    /// Disables one type's delivery, or every type's when `typeIdentifier` is nil. Returns how
    /// many registrations it removed.
    @discardableResult
    public func disable(appID: String, typeIdentifier: String?) throws -> Int {
        try writer.write { try Self.disable(appID: appID, typeIdentifier: typeIdentifier, $0) }
    }

    /// `disable` inside the caller's transaction (also the pending journal's merge).
    static func disable(appID: String, typeIdentifier: String?, _ db: Database) throws -> Int {
        if let typeIdentifier {
            try db.execute(sql: "DELETE FROM background_deliveries WHERE app_id = ? AND type_identifier = ?",
                           arguments: [appID, typeIdentifier])
        } else {
            try db.execute(sql: "DELETE FROM background_deliveries WHERE app_id = ?", arguments: [appID])
        }
        return db.changesCount
    }

    /// One app's registrations, or every app's when `appID` is nil; by app, then type.
    public func registrations(appID: String? = nil) throws -> [BackgroundDeliveryRegistration] {
        try writer.read { db in
            let rows = if let appID {
                try Row.fetchAll(db, sql: "SELECT * FROM background_deliveries WHERE app_id = ? ORDER BY type_identifier",
                                 arguments: [appID])
            } else {
                try Row.fetchAll(db, sql: "SELECT * FROM background_deliveries ORDER BY app_id, type_identifier")
            }
            return rows.compactMap(Self.registration)
        }
    }

    // MARK: The schedule (BackgroundScheduleRecord)

    /// Writes `records` in one transaction (rows of registrations since removed are skipped).
    public func saveSchedule(_ records: [BackgroundScheduleRecord]) throws {
        guard !records.isEmpty else { return }
        try writer.write { db in
            for record in records {
                try db.execute(sql: """
                    INSERT INTO background_schedule (app_id, type_identifier, checked_through, owed_after, last_launch_us,
                                                     unanswered, retry_not_before_us, suspended)
                    SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (
                        SELECT 1 FROM background_deliveries WHERE app_id = ? AND type_identifier = ?)
                    ON CONFLICT(app_id, type_identifier) DO UPDATE SET
                        checked_through = excluded.checked_through, owed_after = excluded.owed_after,
                        last_launch_us = excluded.last_launch_us, unanswered = excluded.unanswered,
                        retry_not_before_us = excluded.retry_not_before_us, suspended = excluded.suspended
                    """, arguments: [record.appID, record.typeIdentifier, record.checkedThrough, record.owedAfter,
                                     record.lastLaunch?.microsecondsSince1970, record.unanswered,
                                     record.retryNotBefore?.microsecondsSince1970, record.suspended,
                                     record.appID, record.typeIdentifier])
            }
        }
    }

    /// Every registration's persisted schedule state.
    public func scheduleRecords() throws -> [BackgroundScheduleRecord] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM background_schedule ORDER BY app_id, type_identifier").map { row in
                BackgroundScheduleRecord(
                    appID: row["app_id"], typeIdentifier: row["type_identifier"], checkedThrough: row["checked_through"],
                    owedAfter: row["owed_after"],
                    lastLaunch: (row["last_launch_us"] as Int64?).map { Date(microsecondsSince1970: $0) },
                    unanswered: row["unanswered"],
                    retryNotBefore: (row["retry_not_before_us"] as Int64?).map { Date(microsecondsSince1970: $0) },
                    suspended: row["suspended"])
            }
        }
    }

    /// A row with a frequency this version does not know is skipped rather than failing every
    /// listing; only `enable` writes rows, with known values.
    private static func registration(_ row: Row) -> BackgroundDeliveryRegistration? {
        guard let frequency = HKUpdateFrequency(rawValue: row["frequency"]) else { return nil }
        return BackgroundDeliveryRegistration(appID: row["app_id"], typeIdentifier: row["type_identifier"], frequency: frequency,
                                              enabledDate: Date(microsecondsSince1970: row["enabled_us"]))
    }
}

extension HealthDatabase {
    /// The background-delivery registrations (a view over the writer; cheap to make).
    public var backgroundDeliveries: BackgroundDeliveryRepository { BackgroundDeliveryRepository(writer: writer) }
}
