import GRDB

extension StoreSchema {
    /// v30: per-object read grants in the change feed.
    ///
    /// `object_read_grants.change_seq`: the change number the grant was made under (a grant
    /// takes a change number of its own, `ObjectGrantRepository.decide`). It is the granted
    /// object's position in that app's feed, so an anchored query continued after the grant
    /// delivers the object once, and an observer of the type fires; every other app's feed is
    /// untouched (the object's own `change_seq` never moves). Grants made before v30 take their
    /// object's change number: where the feed already put them.
    ///
    /// `deleted_object_read_grants`: the apps that held a grant for an object when it was
    /// deleted (`ObjectDeleter` copies them before the object's grants cascade away), keyed by
    /// app first like the live grants. A deletion is reported to those apps and to the saving
    /// app — the ones that could read the object — and to nobody else, so a deletion never
    /// tells an app that an object it could not see existed. Rows go with their app (removal)
    /// and their tombstone. Deletions recorded before v30 have no rows: their grants were gone.
    /// No index by UUID: reads go by app first (the key), and tombstones are never deleted, so
    /// nothing looks these rows up by tombstone (issue 17: an index must earn its place).
    static func registerObjectGrantFeed(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v30: per-object read grants in the change feed") { db in
            try db.execute(sql: """
                ALTER TABLE object_read_grants ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
                UPDATE object_read_grants SET change_seq = (SELECT o.change_seq FROM objects o WHERE o.id = object_id);
                CREATE TABLE deleted_object_read_grants (
                    app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
                    uuid BLOB NOT NULL REFERENCES deleted_objects(uuid) ON DELETE CASCADE,
                    PRIMARY KEY (app_id, uuid)
                ) WITHOUT ROWID;
                """)
        }
    }
}
