import GRDB

extension StoreSchema {
    /// Vision prescriptions and the per-object read grants they need.
    ///
    /// `vision_prescriptions`: one row per prescription object (its type, expiration, brand);
    /// `vision_lenses`: at most one row per eye, with the glasses or contacts fields the
    /// validator allowed (columns of the other lens kind stay NULL). Both hang off `objects` with
    /// ON DELETE CASCADE, so deleting a prescription can never leave its lenses behind.
    ///
    /// `object_read_grants`: which app the user let read which object (HealthKit's per-object
    /// read authorization). Keyed (app, object) so the visibility test is one primary-key probe
    /// per visible candidate row; cascading from both `apps` (removing an app removes its grants)
    /// and `objects` (a deleted object's grant goes with it). A row means authorized; the
    /// absence of a row is "not granted", which is all an app can ever be told about it.
    static func registerVisionPrescriptions(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v27: vision prescriptions and per-object read grants") { db in
            try db.execute(sql: """
                CREATE TABLE vision_prescriptions (
                    object_id INTEGER PRIMARY KEY REFERENCES objects(id) ON DELETE CASCADE,
                    kind INTEGER NOT NULL,          -- HKVisionPrescriptionType: 1 glasses, 2 contacts
                    has_lenses INTEGER NOT NULL,    -- 1 for HKGlassesPrescription/HKContactsPrescription
                    expiration_us INTEGER,
                    brand TEXT
                );
                CREATE TABLE vision_lenses (
                    object_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    eye INTEGER NOT NULL,           -- HKVisionEye: 1 left, 2 right
                    sphere REAL NOT NULL,           -- D
                    cylinder REAL, axis REAL, add_power REAL,                 -- D, deg, D
                    vertex_distance REAL, far_pd REAL, near_pd REAL,          -- mm (glasses)
                    prism_amount REAL, prism_angle REAL, prism_eye INTEGER,   -- pD, deg (glasses)
                    base_curve REAL, diameter REAL,                           -- mm (contacts)
                    PRIMARY KEY (object_id, eye)
                ) WITHOUT ROWID;
                CREATE TABLE object_read_grants (
                    app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
                    object_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    decided_us INTEGER NOT NULL,
                    PRIMARY KEY (app_id, object_id)
                ) WITHOUT ROWID;
                CREATE INDEX object_read_grants_by_object ON object_read_grants(object_id);
                """)
        }
    }
}
