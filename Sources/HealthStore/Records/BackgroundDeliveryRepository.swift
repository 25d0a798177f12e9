public import Foundation
import GRDB
public import HealthModel

/// Apps' background-delivery registrations: one per app and type, with its frequency.
public struct BackgroundDeliveryRepository: Sendable {
    let writer: any DatabaseWriter

    /// Enables (or changes the frequency of) `registration`. The app must be installed.
    public func enable(_ registration: BackgroundDeliveryRegistration) throws {
        try writer.write { db in
            try db.execute(sql: """
                INSERT INTO background_deliveries (app_id, type_identifier, frequency, enabled_us) VALUES (?, ?, ?, ?)
                ON CONFLICT(app_id, type_identifier) DO UPDATE SET
                    frequency = excluded.frequency, enabled_us = excluded.enabled_us
                """, arguments: [registration.appID, registration.typeIdentifier, registration.frequency.rawValue,
                                 registration.enabledDate.microsecondsSince1970])
        }
    }

    /// Disables one type's delivery, or every type's when `typeIdentifier` is nil. Returns how
    /// many registrations it removed.
    @discardableResult
    public func disable(appID: String, typeIdentifier: String?) throws -> Int {
        try writer.write { db in
            if let typeIdentifier {
                try db.execute(sql: "DELETE FROM background_deliveries WHERE app_id = ? AND type_identifier = ?",
                               arguments: [appID, typeIdentifier])
            } else {
                try db.execute(sql: "DELETE FROM background_deliveries WHERE app_id = ?", arguments: [appID])
            }
            return db.changesCount
        }
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
