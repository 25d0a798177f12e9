import GRDB

extension StoreSchema {
    /// HKStateOfMind: kind and valence in one row per object, labels and associations one row
    /// each so a label or association predicate is an indexed EXISTS on the visible object
    /// rather than a scan of a packed list. All three hang off `objects` with ON DELETE CASCADE,
    /// so deleting the sample can never leave how someone felt behind. `position` keeps the
    /// order the app gave; the validator refuses a label or association given twice.
    static func registerStateOfMind(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v18: state of mind") { db in
            try db.execute(sql: """
                CREATE TABLE states_of_mind (
                    object_id INTEGER PRIMARY KEY REFERENCES objects(id) ON DELETE CASCADE,
                    kind INTEGER NOT NULL,        -- HKStateOfMind.Kind raw value
                    valence REAL NOT NULL         -- -1 ... +1
                );
                CREATE TABLE state_of_mind_labels (
                    object_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    label INTEGER NOT NULL,       -- HKStateOfMind.Label raw value
                    PRIMARY KEY (object_id, position)
                ) WITHOUT ROWID;
                CREATE TABLE state_of_mind_associations (
                    object_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    association INTEGER NOT NULL, -- HKStateOfMind.Association raw value
                    PRIMARY KEY (object_id, position)
                ) WITHOUT ROWID;
                """)
        }
    }
}
