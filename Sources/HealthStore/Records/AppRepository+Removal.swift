import GRDB

extension AppRepository {
    /// Uninstalls an app: its manifest row goes, and with it (ON DELETE CASCADE) its grants,
    /// background-delivery registrations and schedule, and the direct-connection opt-in. Objects
    /// it saved stay (they are the user's data; `SampleRepository.deleteAll(fromSource:)` removes
    /// them when asked), as does its part of the access log. Returns false if no such app.
    public func remove(id: String) throws -> Bool {
        // The cascade deletes the grant rows; the cached copy goes too, before (no call answers
        // from it while the removal commits) and after (a call that read meanwhile cached the
        // old rows). Without this a reinstall under the same id inherited the old grants.
        grantCache.invalidate(appID: id)
        VisibilityEpoch.shared.grantsChanged(appID: id)
        defer {
            grantCache.invalidate(appID: id)
            VisibilityEpoch.shared.grantsChanged(appID: id)
        }
        return try writer.write { db in
            try db.execute(sql: "DELETE FROM apps WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }
}
