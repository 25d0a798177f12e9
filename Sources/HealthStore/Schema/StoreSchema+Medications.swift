import GRDB

extension StoreSchema {
    /// Medications (iOS 26). A medication (`HKUserAnnotatedMedication` with its concept) and a
    /// dose event (`HKMedicationDoseEvent`) are each an `objects` row with a side row here,
    /// cascading from it, so deleting the object never leaves a medication's name behind.
    ///
    /// - `medications.concept_id` is unique: the user tracks a medication once, and dose events
    ///   name their medication by it.
    /// - `medication_dose_events_by_concept` (concept, object): the visibility choke point finds
    ///   the dose events of the medications an app was granted by this key
    ///   (`SampleSQL.grantedRows`), so the cost follows the granted medications' doses only.
    /// - `is_archived` is the one column that changes after the save (the user archives a
    ///   medication in the manager, as in Apple's Health app); nothing else is ever updated.
    static func registerMedications(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v34: medications and dose events") { db in
            try db.execute(sql: """
                CREATE TABLE medications (
                    object_id INTEGER PRIMARY KEY REFERENCES objects(id) ON DELETE CASCADE,
                    concept_id TEXT NOT NULL UNIQUE,
                    display_text TEXT NOT NULL,
                    general_form TEXT NOT NULL,
                    nickname TEXT,
                    is_archived INTEGER NOT NULL,
                    has_schedule INTEGER NOT NULL
                );
                CREATE TABLE medication_codings (
                    object_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    system TEXT NOT NULL,
                    version TEXT,
                    code TEXT NOT NULL,
                    PRIMARY KEY (object_id, position)
                ) WITHOUT ROWID;
                CREATE TABLE medication_dose_events (
                    object_id INTEGER PRIMARY KEY REFERENCES objects(id) ON DELETE CASCADE,
                    concept_id TEXT NOT NULL,
                    schedule_type INTEGER NOT NULL,   -- HKMedicationDoseEvent.ScheduleType raw value
                    log_status INTEGER NOT NULL,      -- HKMedicationDoseEvent.LogStatus raw value
                    unit TEXT NOT NULL,
                    dose_quantity REAL,
                    scheduled_dose_quantity REAL,
                    scheduled_us INTEGER
                );
                CREATE INDEX medication_dose_events_by_concept ON medication_dose_events(concept_id, object_id);
                """)
        }
    }
}
