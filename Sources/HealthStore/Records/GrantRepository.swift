public import Foundation
import GRDB
public import HealthModel

/// Per app, per type, per access kind: the user's decision. No row means not determined.
public struct GrantRepository: Sendable {
    let writer: any DatabaseWriter

    public func decisions(appID: String) throws -> [GrantDecision] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT type_identifier, access, decision FROM grants WHERE app_id = ?
                ORDER BY type_identifier, access
                """, arguments: [appID]).compactMap(Self.decision)
        }
    }

    public func decision(appID: String, type: String, access: AccessKind) throws -> AuthorizationDecision {
        try writer.read { db in
            let raw = try Int.fetchOne(db, sql: """
                SELECT decision FROM grants WHERE app_id = ? AND type_identifier = ? AND access = ?
                """, arguments: [appID, type, access.rawValue])
            return raw.flatMap(AuthorizationDecision.init(rawValue:)) ?? .notDetermined
        }
    }

    /// Applies decisions atomically; `.notDetermined` removes the row (the app may ask again).
    public func apply(appID: String, _ decisions: [GrantDecision], at date: Date = Date()) throws {
        let micros = date.microsecondsSince1970
        try writer.write { db in
            for grant in decisions {
                if grant.decision == .notDetermined {
                    try db.execute(sql: "DELETE FROM grants WHERE app_id = ? AND type_identifier = ? AND access = ?",
                                   arguments: [appID, grant.typeIdentifier, grant.access.rawValue])
                } else {
                    try db.execute(sql: """
                        INSERT INTO grants (app_id, type_identifier, access, decision, decided_us) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT(app_id, type_identifier, access) DO UPDATE SET
                            decision = excluded.decision, decided_us = excluded.decided_us
                        """, arguments: [appID, grant.typeIdentifier, grant.access.rawValue, grant.decision.rawValue, micros])
                }
            }
        }
    }

    private static func decision(_ row: Row) -> GrantDecision? {
        guard let access = AccessKind(rawValue: row["access"]),
              let decision = AuthorizationDecision(rawValue: row["decision"]) else { return nil }
        return GrantDecision(row["type_identifier"], access, decision)
    }
}
