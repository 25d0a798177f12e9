import GRDB

extension StoreSchema {
    /// `workout_associations.change_seq`: the change number of the write that made the
    /// association, so a reading bounded by an answer's first one (`Visibility.through`) matches
    /// `.workout(uuid)` against the associations the first reading saw, not one the reader made
    /// since (SECURITY.md, "A second reading is bounded by the first"). Existing rows get 0: they
    /// precede every answer that can be read again, all of which begin after this migration.
    static func registerAssociationChange(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v64: the change number of each workout association") { db in
            try db.execute(sql: "ALTER TABLE workout_associations ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0")
        }
    }
}
