import GRDB

extension StoreSchema {
    /// Clinical records (`HKClinicalRecord`): one row per object, hanging off `objects` with
    /// ON DELETE CASCADE. The FHIR resource is kept as the bytes given (`HKFHIRResource.data`
    /// returns them unchanged), next to the two fields queries select by (`resource_type`,
    /// `resource_id`), which were checked against those bytes when the record was stored
    /// (`FHIRResourceRules`). Predicates reach this table only as an EXISTS correlated to a
    /// visible object by its primary key, so no extra index is needed (and none is pinned).
    static func registerClinicalRecords(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v28: clinical records") { db in
            try db.execute(sql: """
                CREATE TABLE clinical_records (
                    object_id INTEGER PRIMARY KEY REFERENCES objects(id) ON DELETE CASCADE,
                    display_name TEXT NOT NULL,
                    resource_type TEXT NOT NULL,  -- HKFHIRResourceType raw value
                    resource_id TEXT NOT NULL,    -- the resource's id
                    resource BLOB NOT NULL,       -- the FHIR JSON as given
                    source_url TEXT,
                    fhir_version TEXT NOT NULL    -- "4.0.1"
                );
                """)
        }
    }
}
