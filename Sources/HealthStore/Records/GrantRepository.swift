public import Foundation
import GRDB
public import HealthModel

/// Per app, per type, per access kind: the user's decision, with the limits of a temporary grant.
/// No row means not determined.
///
/// Rows are stored as the user set them; an expired grant stays `authorized` with its expiry in
/// the past. Whoever asks for a decision gets the effective one (`GrantDecision.effective(at:)`),
/// so expiry needs no background job and cannot be missed.
///
/// Reads are answered from `GrantCache` (no read transaction per call); the table's writers keep
/// it in step: `apply`, and `AppRepository.remove`, whose cascade deletes an app's rows.
public struct GrantRepository: Sendable {
    let writer: any DatabaseWriter
    let cache: GrantCache

    init(writer: any DatabaseWriter) {
        self.writer = writer
        cache = GrantCache()
    }

    /// Every grant of `appID` as stored, limits included (an expired one still says authorized).
    public func decisions(appID: String) throws -> [GrantDecision] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT type_identifier, access, decision, window_us, expires_us FROM grants WHERE app_id = ?
                ORDER BY type_identifier, access
                """, arguments: [appID]).compactMap(Self.grant)
        }
    }

    /// The stored grant, or nil when the user has not decided. From memory once the app's grants
    /// were read (`GrantCache`).
    public func grant(appID: String, type: String, access: AccessKind) throws -> GrantDecision? {
        try cache.grants(appID: appID) { try decisions(appID: appID) }[GrantCache.Key(type: type, access: access)]
    }

    /// The decision in force at `now`: an expired grant is denied.
    public func decision(appID: String, type: String, access: AccessKind, at now: Date = Date()) throws -> AuthorizationDecision {
        try grant(appID: appID, type: type, access: access)?.effective(at: now).decision ?? .notDetermined
    }

    /// The earliest expiry of any grant still in force after `now`, or nil when none will expire.
    public func nextExpiry(after now: Date) throws -> Date? {
        try writer.read { db in
            try Int64.fetchOne(db, sql: """
                SELECT min(expires_us) FROM grants WHERE expires_us > ? AND decision = ?
                """, arguments: [now.microsecondsSince1970, AuthorizationDecision.authorized.rawValue])
        }.map(Date.init(microsecondsSince1970:))
    }

    /// The apps with an authorized grant expiring after `start` and at or before `end`: whose
    /// grants changed by themselves in that time.
    public func appsWithGrantsExpiring(after start: Date, through end: Date) throws -> [String] {
        try writer.read { db in
            try String.fetchAll(db, sql: """
                SELECT DISTINCT app_id FROM grants WHERE expires_us > ? AND expires_us <= ? AND decision = ? ORDER BY app_id
                """, arguments: [start.microsecondsSince1970, end.microsecondsSince1970, AuthorizationDecision.authorized.rawValue])
        }
    }

    /// Applies decisions atomically; `.notDetermined` removes the row (the app may ask again).
    /// A decision replaces the earlier one with its limits: a grant set again without an expiry
    /// is permanent from then on.
    public func apply(appID: String, _ decisions: [GrantDecision], at date: Date = Date()) throws {
        // Before: no call keeps answering from the old grants while the change commits. After:
        // a call that read the store meanwhile may have cached the old rows; they go too.
        // The epoch likewise: a stream of the app's that read under the old grants reads again.
        cache.invalidate(appID: appID)
        VisibilityEpoch.shared.grantsChanged(appID: appID)
        defer {
            cache.invalidate(appID: appID)
            VisibilityEpoch.shared.grantsChanged(appID: appID)
        }
        try writer.write { db in try Self.apply(db, appID: appID, decisions, at: date) }
    }

    /// `apply` inside the caller's transaction (the pending journal's merge of grants the user
    /// changed while the store was locked). It leaves `GrantCache` alone: the merge runs on a
    /// store just reopened at unlock, whose cache is new and empty, before any call is let in.
    static func apply(_ db: Database, appID: String, _ decisions: [GrantDecision], at date: Date) throws {
        let micros = date.microsecondsSince1970
        for grant in decisions {
            if grant.decision == .notDetermined {
                try db.execute(sql: "DELETE FROM grants WHERE app_id = ? AND type_identifier = ? AND access = ?",
                               arguments: [appID, grant.typeIdentifier, grant.access.rawValue])
            } else {
                try db.execute(sql: """
                    INSERT INTO grants (app_id, type_identifier, access, decision, decided_us, window_us, expires_us)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(app_id, type_identifier, access) DO UPDATE SET
                        decision = excluded.decision, decided_us = excluded.decided_us,
                        window_us = excluded.window_us, expires_us = excluded.expires_us
                    """, arguments: [appID, grant.typeIdentifier, grant.access.rawValue, grant.decision.rawValue, micros,
                                     grant.limits.dataWindow.map { Int64(($0 * 1_000_000).rounded()) },
                                     grant.limits.expiry?.microsecondsSince1970])
            }
        }
    }

    /// `decision` inside the caller's transaction, from the table (the pending journal's merge,
    /// which sees the grants merged before the entry it applies).
    static func decision(_ db: Database, appID: String, type: String, access: AccessKind,
                         at now: Date = Date()) throws -> AuthorizationDecision {
        let row = try Row.fetchOne(db, sql: """
            SELECT type_identifier, access, decision, window_us, expires_us FROM grants
            WHERE app_id = ? AND type_identifier = ? AND access = ?
            """, arguments: [appID, type, access.rawValue])
        return row.flatMap(Self.grant)?.effective(at: now).decision ?? .notDetermined
    }

    private static func grant(_ row: Row) -> GrantDecision? {
        guard let access = AccessKind(rawValue: row["access"]),
              let decision = AuthorizationDecision(rawValue: row["decision"]) else { return nil }
        let window: Int64? = row["window_us"]
        let expiry: Int64? = row["expires_us"]
        return GrantDecision(row["type_identifier"], access, decision, limits: GrantLimits(
            dataWindow: window.map { Double($0) / 1_000_000 },
            expiry: expiry.map(Date.init(microsecondsSince1970:))))
    }
}
