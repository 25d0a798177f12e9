import GRDB

extension StoreSchema {
    /// v31: the product type and system version an object was saved on (HKSourceRevision's
    /// `productType` and `operatingSystemVersion`).
    ///
    /// `source_systems` holds each distinct (product type, system version) once, as `devices`
    /// holds each device: a store's objects come from one or two hosts, so a per-object copy of
    /// two strings would repeat the same bytes millions of times. '' is "no product type",
    /// '0.0.0' "no system version" (NOT NULL, so the UNIQUE key dedupes them too).
    /// `objects.system_id` names the row; NULL for objects that record neither, which is every
    /// object stored before v31 (they keep reading as nil / 0.0.0: nothing is invented for them).
    /// No index on `system_id`: predicates reach `source_systems` from the row (`EXISTS … WHERE
    /// ss.id = o.system_id`, by its primary key), never the other way.
    static func registerSourceSystems(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v31: product type and system version of source revisions") { db in
            try db.execute(sql: """
                CREATE TABLE source_systems (
                    id INTEGER PRIMARY KEY,
                    product_type TEXT NOT NULL,
                    os_version TEXT NOT NULL,
                    UNIQUE (product_type, os_version)
                );
                ALTER TABLE objects ADD COLUMN system_id INTEGER REFERENCES source_systems(id);
                """)
        }
    }
}
