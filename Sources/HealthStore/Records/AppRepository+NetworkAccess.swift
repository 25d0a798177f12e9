public import Foundation
import GRDB

/// The user's per-app network switch. An app has a network only when its manifest asks for it
/// (`AppManifest.network`) and the user allowed it; either alone gives nothing.
extension AppRepository {
    /// Allows or withdraws network access for `appID`. Returns false when no such app is installed.
    @discardableResult
    public func setNetworkAccess(appID: String, allowed: Bool, at date: Date = Date()) throws -> Bool {
        try writer.write { try Self.setNetworkAccess($0, appID: appID, allowed: allowed, at: date) }
    }

    /// `setNetworkAccess` inside the caller's transaction (also the pending journal's merge of a change
    /// the user made while the store was locked).
    static func setNetworkAccess(_ db: Database, appID: String, allowed: Bool, at date: Date) throws -> Bool {
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM apps WHERE id = ?", arguments: [appID]) ?? false else { return false }
        if allowed {
            try db.execute(sql: """
                INSERT INTO network_apps (app_id, allowed_us) VALUES (?, ?)
                ON CONFLICT(app_id) DO UPDATE SET allowed_us = excluded.allowed_us
                """, arguments: [appID, date.microsecondsSince1970])
        } else {
            try db.execute(sql: "DELETE FROM network_apps WHERE app_id = ?", arguments: [appID])
        }
        return true
    }

    /// The ids of the apps the user allowed network access (whether or not their manifest asks).
    public func networkAllowedAppIDs() throws -> Set<String> {
        try writer.read { db in Set(try String.fetchAll(db, sql: "SELECT app_id FROM network_apps")) }
    }

    /// Whether `appID` gets a network at its next launch: its manifest asks and the user allows.
    public func networkGranted(appID: String) throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(db, sql: """
                SELECT 1 FROM apps a JOIN network_apps n ON n.app_id = a.id WHERE a.id = ? AND a.network = 1
                """, arguments: [appID]) ?? false
        }
    }
}
