public import Foundation
import GRDB
public import HealthModel

/// Installed apps and their manifests.
public struct AppRepository: Sendable {
    let writer: any DatabaseWriter
    /// The grants' cache: removing an app deletes its grant rows (ON DELETE CASCADE) behind
    /// `GrantRepository.apply`'s back, so `remove` clears the app's cached grants too.
    let grantCache: GrantCache

    /// Installs or replaces a manifest. Returns true when an app with this id existed. Grants
    /// survive a reinstall: the user decided for the app id, not for one build of it.
    ///
    /// The app's source, if it has written before, takes the manifest's display name here and
    /// only here: writes never rename a source (`SampleRepository.sourceID`), so the name its
    /// visible samples show depends on the user's installs, not on what it wrote since.
    ///
    /// Refused (`errorInvalidArgument`) when another installed app has the same display name in
    /// `DisplayNameRule.comparisonKey` form: checked in this write transaction, so two installs
    /// racing cannot both take one name.
    @discardableResult
    public func install(_ manifest: AppManifest, at date: Date = Date()) throws -> Bool {
        let entitlements = String(decoding: try JSONEncoder().encode(manifest.entitlements), as: UTF8.self)
        return try writer.write { db in
            let key = DisplayNameRule.comparisonKey(manifest.displayName)
            for row in try Row.fetchAll(db, sql: "SELECT id, display_name FROM apps WHERE id != ?", arguments: [manifest.id]) {
                let (otherID, otherName): (String, String) = (row["id"], row["display_name"])
                guard DisplayNameRule.comparisonKey(otherName) == key else { continue }
                throw HKError(.errorInvalidArgument, DisplayNameRule.clashMessage(manifest.displayName, otherAppID: otherID,
                                                                                   otherDisplayName: otherName))
            }
            let existed = try Bool.fetchOne(db, sql: "SELECT 1 FROM apps WHERE id = ?", arguments: [manifest.id]) ?? false
            try db.execute(sql: """
                INSERT INTO apps (id, display_name, executable, version, read_usage_description,
                                  share_usage_description, entitlements, installed_us, network)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET display_name = excluded.display_name,
                    executable = excluded.executable, version = excluded.version,
                    read_usage_description = excluded.read_usage_description,
                    share_usage_description = excluded.share_usage_description,
                    entitlements = excluded.entitlements, network = excluded.network
                """, arguments: [manifest.id, manifest.displayName, manifest.executable, manifest.version,
                                 manifest.readUsageDescription, manifest.shareUsageDescription, entitlements,
                                 date.microsecondsSince1970, manifest.network])
            try db.execute(sql: "UPDATE sources SET name = ? WHERE bundle_identifier = ? AND name IS NOT ?",
                           arguments: [manifest.displayName, manifest.id, manifest.displayName])
            return existed
        }
    }

    public func all() throws -> [AppManifest] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM apps ORDER BY id").map(Self.manifest)
        }
    }

    public func find(id: String) throws -> AppManifest? {
        try writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM apps WHERE id = ?", arguments: [id]).map(Self.manifest)
        }
    }

    public func find(executable: String) throws -> [AppManifest] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM apps WHERE executable = ? ORDER BY id", arguments: [executable])
                .map(Self.manifest)
        }
    }

    private static func manifest(_ row: Row) throws -> AppManifest {
        let entitlementsJSON: String = row["entitlements"]
        return AppManifest(
            id: row["id"], displayName: row["display_name"], executable: row["executable"], version: row["version"],
            readUsageDescription: row["read_usage_description"], shareUsageDescription: row["share_usage_description"],
            entitlements: try JSONDecoder().decode([String].self, from: Data(entitlementsJSON.utf8)),
            network: row["network"])
    }
}
