import GRDB

extension StoreSchema {
    static func registerSourcePriority(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v7: source priority") { db in
            // The user's order of sources per type, highest priority first (rank 0). Keyed by app
            // id rather than sources.id, so an installed app can be placed before it saves
            // anything. Sources a type's order leaves out follow it in the default order
            // (`SourcePriorityRepository.rankedSources`).
            try db.execute(sql: """
                CREATE TABLE source_priority (
                    type_identifier TEXT NOT NULL,
                    bundle_identifier TEXT NOT NULL,
                    rank INTEGER NOT NULL,
                    PRIMARY KEY (type_identifier, bundle_identifier),
                    UNIQUE (type_identifier, rank)
                ) WITHOUT ROWID;
                """)
        }
    }
}
