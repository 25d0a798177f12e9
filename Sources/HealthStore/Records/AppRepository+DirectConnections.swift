public import Foundation
import GRDB

/// The user's per-app opt-in to direct (credential-bound) connections. The allowed executable
/// is stored with it, so the opt-in never carries over to a different binary installed later
/// under the same id.
extension AppRepository {
    /// Allows or revokes direct connections for `appID`. Returns false when no such app is installed.
    @discardableResult
    public func setDirectConnections(appID: String, allowed: Bool, at date: Date = Date()) throws -> Bool {
        try writer.write { try Self.setDirectConnections($0, appID: appID, allowed: allowed, at: date) }
    }

    /// `setDirectConnections` inside the caller's transaction (also the pending journal's merge of a change
    /// the user made while the store was locked).
    static func setDirectConnections(_ db: Database, appID: String, allowed: Bool, at date: Date) throws -> Bool {
        guard let executable = try String.fetchOne(db, sql: "SELECT executable FROM apps WHERE id = ?", arguments: [appID]) else {
            return false
        }
        if allowed {
            try db.execute(sql: """
                INSERT INTO direct_connection_apps (app_id, executable, allowed_us) VALUES (?, ?, ?)
                ON CONFLICT(app_id) DO UPDATE SET executable = excluded.executable, allowed_us = excluded.allowed_us
                """, arguments: [appID, executable, date.microsecondsSince1970])
        } else {
            try db.execute(sql: "DELETE FROM direct_connection_apps WHERE app_id = ?", arguments: [appID])
        }
        return true
    }

    /// Whether `appID` may connect directly with its currently installed executable.
    public func directConnectionsAllowed(appID: String) throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(db, sql: """
                SELECT 1 FROM direct_connection_apps d JOIN apps a ON a.id = d.app_id
                WHERE d.app_id = ? AND d.executable = a.executable
                """, arguments: [appID]) ?? false
        }
    }

    /// The ids of every app currently allowed to connect directly.
    public func directConnectionAppIDs() throws -> Set<String> {
        try writer.read { db in
            Set(try String.fetchAll(db, sql: """
                SELECT d.app_id FROM direct_connection_apps d JOIN apps a ON a.id = d.app_id
                WHERE d.executable = a.executable
                """))
        }
    }
}
