public import Foundation
import GRDB
public import HealthModel

/// Each app's own unprivileged uid, for launches by root (`AppSandboxIDRange`).
extension AppRepository {
    /// Refused assignment: every number of the range has been given out.
    public struct SandboxIDsExhausted: Error, CustomStringConvertible {
        public var description: String {
            "all \(AppSandboxIDRange.count) sandbox uids (\(AppSandboxIDRange.first)–\(AppSandboxIDRange.last)) are assigned; "
                + "numbers are never reused, so this store cannot launch a further app as root"
        }
    }

    /// `appID`'s uid, assigned on first use (the next number after the highest ever given) and
    /// kept for good, also if the app is removed. Nil when no such app is installed and none was
    /// ever assigned.
    public func sandboxUID(appID: String, at date: Date = Date()) throws -> UInt32? {
        // Every launch asks; only the first for an app writes (a read does not wait for the writer).
        let assigned = try writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT uid FROM app_sandbox_ids WHERE app_id = ?", arguments: [appID])
        }
        if let assigned { return UInt32(exactly: assigned) }
        return try writer.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM apps WHERE id = ?", arguments: [appID]) ?? false else { return nil }
            if let existing = try Int64.fetchOne(db, sql: "SELECT uid FROM app_sandbox_ids WHERE app_id = ?", arguments: [appID]) {
                return UInt32(exactly: existing)
            }
            let highest = try Int64.fetchOne(db, sql: "SELECT MAX(uid) FROM app_sandbox_ids")
            let next = highest.map { $0 + 1 } ?? Int64(AppSandboxIDRange.first)
            guard let uid = UInt32(exactly: next), AppSandboxIDRange.contains(uid) else { throw SandboxIDsExhausted() }
            try db.execute(sql: "INSERT INTO app_sandbox_ids (app_id, uid, assigned_us) VALUES (?, ?, ?)",
                           arguments: [appID, Int64(uid), date.microsecondsSince1970])
            return uid
        }
    }
}
