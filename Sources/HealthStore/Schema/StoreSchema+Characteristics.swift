import GRDB

extension StoreSchema {
    /// Characteristics, correlation membership and the user's preferred units.
    static func registerCharacteristics(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5: correlations and characteristics") { db in
            try db.execute(sql: """
                -- One row per characteristic the user set. Owned by the user's source (see
                -- CharacteristicRepository.userSource, an id no app can have): apps reach a row
                -- only through SampleSQL.visibility, so one without read permission finds none,
                -- exactly as if the value were unset (DESIGN.md §7.4).
                CREATE TABLE characteristics (
                    type_identifier TEXT PRIMARY KEY,
                    source_id INTEGER NOT NULL REFERENCES sources(id),
                    start_us INTEGER NOT NULL,      -- when the user set it
                    enum_value INTEGER,             -- the raw value of the type's enum
                    day TEXT,                       -- date of birth, YYYY-MM-DD
                    CHECK ((enum_value IS NULL) <> (day IS NULL))
                ) WITHOUT ROWID;
                -- An HKCorrelation is an `objects` row of the correlation type (no value) and
                -- one membership row per sample it groups; the members are ordinary `objects`
                -- rows of their own types, so sample queries of those types find them.
                CREATE TABLE correlation_members (
                    correlation_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    member_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    PRIMARY KEY (correlation_id, member_id)
                ) WITHOUT ROWID;
                CREATE INDEX correlation_members_by_member ON correlation_members(member_id);
                -- The user's unit per quantity type (preferredUnits(for:)); no row: the
                -- default of the asking app's locale.
                CREATE TABLE unit_preferences (
                    type_identifier TEXT PRIMARY KEY,
                    unit TEXT NOT NULL,
                    set_us INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
    }
}
