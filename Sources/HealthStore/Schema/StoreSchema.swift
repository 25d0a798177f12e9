import GRDB

/// The store's schema as ordered migrations. A shipped migration is never edited: a change is
/// a new migration appended at the end. They run at start-up inside one transaction each, so
/// a crash mid-migration leaves the previous version intact.
enum StoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: objects, sources, devices, apps, grants") { db in
            try db.execute(sql: """
                CREATE TABLE sample_types (
                    id INTEGER PRIMARY KEY,
                    identifier TEXT NOT NULL UNIQUE
                );
                CREATE TABLE sources (
                    id INTEGER PRIMARY KEY,
                    bundle_identifier TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL
                );
                CREATE TABLE devices (
                    id INTEGER PRIMARY KEY,
                    -- all properties joined: one row per distinct device
                    fingerprint TEXT NOT NULL UNIQUE,
                    name TEXT, manufacturer TEXT, model TEXT, hardware_version TEXT,
                    firmware_version TEXT, software_version TEXT, local_identifier TEXT,
                    udi_device_identifier TEXT
                );
                -- Objects are immutable. The rowid is the insertion order; uuid is a broker-minted
                -- UUIDv7, so its UNIQUE index also grows at the right edge (no random inserts).
                CREATE TABLE objects (
                    id INTEGER PRIMARY KEY,
                    uuid BLOB NOT NULL UNIQUE,
                    type_id INTEGER NOT NULL REFERENCES sample_types(id),
                    source_id INTEGER NOT NULL REFERENCES sources(id),
                    source_version TEXT,
                    device_id INTEGER REFERENCES devices(id),
                    start_us INTEGER NOT NULL,
                    end_us INTEGER NOT NULL,
                    quantity REAL,          -- in the type's canonical unit
                    category INTEGER,
                    metadata TEXT,          -- JSON of typed metadata values, NULL when empty
                    change_seq INTEGER NOT NULL,
                    CHECK (start_us <= end_us)
                );
                CREATE INDEX objects_by_type_start ON objects(type_id, start_us);
                CREATE INDEX objects_by_type_source_start ON objects(type_id, source_id, start_us);
                CREATE INDEX objects_by_change ON objects(change_seq);
                CREATE TABLE deleted_objects (
                    uuid BLOB PRIMARY KEY,
                    type_id INTEGER NOT NULL,
                    source_id INTEGER NOT NULL,
                    sync_identifier TEXT,
                    sync_version INTEGER,
                    change_seq INTEGER NOT NULL
                );
                CREATE INDEX deleted_by_change ON deleted_objects(change_seq);
                -- One counter, bumped once per committed change, that anchors will be built on.
                CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
                INSERT INTO counters VALUES ('change', 0);
                CREATE TABLE apps (
                    id TEXT PRIMARY KEY,
                    display_name TEXT NOT NULL,
                    executable TEXT NOT NULL,
                    version TEXT NOT NULL,
                    read_usage_description TEXT,
                    share_usage_description TEXT,
                    entitlements TEXT NOT NULL,   -- JSON array
                    installed_us INTEGER NOT NULL
                );
                CREATE TABLE grants (
                    app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
                    type_identifier TEXT NOT NULL,
                    access INTEGER NOT NULL,      -- 1 read, 2 share
                    decision INTEGER NOT NULL,    -- 1 denied, 2 authorized (not determined = no row)
                    decided_us INTEGER NOT NULL,
                    PRIMARY KEY (app_id, type_identifier, access)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v2: sync identifier and version of objects, by source") { db in
            // HKMetadataKeySyncIdentifier/-Version also stay in `metadata` (what apps read back);
            // these columns make the per-source upsert an index lookup. Unique per source: a save
            // replaces or is ignored, so one source never holds two objects with one identifier.
            // Objects saved under v1 keep their pair in `metadata` only (v1 never upserted).
            try db.execute(sql: """
                ALTER TABLE objects ADD COLUMN sync_identifier TEXT;
                ALTER TABLE objects ADD COLUMN sync_version INTEGER;
                CREATE UNIQUE INDEX objects_by_source_sync ON objects(source_id, sync_identifier)
                    WHERE sync_identifier IS NOT NULL;
                """)
        }
        migrator.registerMigration("v3: access log") { db in
            try db.execute(sql: """
                -- Append-only and hash-chained (AccessLogRepository): who touched which types, how
                -- many objects, when. Never a health value.
                CREATE TABLE access_log (
                    sequence INTEGER PRIMARY KEY,  -- 1, 2, 3, ... without gaps
                    time_us INTEGER NOT NULL,
                    actor TEXT NOT NULL,           -- an app id, or "manager"
                    app_id TEXT,                   -- the app concerned (the actor, or the app whose grants changed)
                    action TEXT NOT NULL,          -- request, grant-change, read, write, ...
                    types TEXT NOT NULL,           -- JSON array of type identifiers
                    count INTEGER NOT NULL,
                    detail TEXT NOT NULL,
                    prev_hash BLOB NOT NULL,
                    hash BLOB NOT NULL
                );
                CREATE INDEX access_log_by_app ON access_log(app_id, sequence);
                -- The chain's head, written in the same transaction as each entry: deleting the
                -- newest entries leaves the head pointing past the end of the table.
                CREATE TABLE access_log_head (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    sequence INTEGER NOT NULL,
                    hash BLOB NOT NULL
                );
                """)
        }
        registerWorkouts(&migrator)              // v4
        registerCharacteristics(&migrator)       // v5
        registerChangeFeed(&migrator)            // v6
        registerSourcePriority(&migrator)        // v7
        registerTemporaryGrants(&migrator)       // v8
        registerBackgroundDelivery(&migrator)    // v9
        registerActivitySummaries(&migrator)     // v10
        registerDirectConnections(&migrator)     // v11
        registerWindowFeed(&migrator)            // v12
        registerBackgroundSchedule(&migrator)    // v13
        registerSandboxIDs(&migrator)            // v14
        registerNetworkAccess(&migrator)         // v15
        registerPendingJournal(&migrator)        // v16
        registerSeries(&migrator)                // v17
        registerStateOfMind(&migrator)           // v18
        registerStatisticsIndex(&migrator)       // v19
        registerWorkoutActivities(&migrator)     // v20
        registerScoredAssessments(&migrator)     // v22
        registerQuantitySeries(&migrator)        // v23
        registerLockedStart(&migrator)           // v25
        registerAudiograms(&migrator)            // v26
        registerVisionPrescriptions(&migrator)   // v27
        registerClinicalRecords(&migrator)       // v28
        registerDocuments(&migrator)             // v29
        registerObjectGrantFeed(&migrator)       // v30
        registerSourceSystems(&migrator)         // v31
        registerWorkoutEffort(&migrator)         // v32
        registerAttachments(&migrator)           // v33
        registerMedications(&migrator)           // v34
        registerWorkoutEffortChanges(&migrator)  // v35
        registerSyncKey(&migrator)               // v36
        registerAccessLogHeadInCounters(&migrator)  // v37
        registerDeletedGrantThrough(&migrator)   // v38
        registerWorkoutEffortDeparted(&migrator) // v39
        registerUploadConnections(&migrator)     // v42
        registerObjectReadOffers(&migrator)      // v48
        registerSyncKeyKinds(&migrator)          // v58
        registerWorkoutEffortScoped(&migrator)   // v60
        registerAssociationChange(&migrator)     // v64
        registerAppStorage(&migrator)            // v66
        registerVerifiableRecords(&migrator)     // v67
        registerWindowWalk(&migrator)            // v68
        registerWorkoutEffortWalk(&migrator)     // v69
        registerWorkoutEffortWorkoutScope(&migrator) // v70
        registerKeySpellings(&migrator)          // v71
        registerAssociationType(&migrator)       // v72
        return migrator
    }
}
