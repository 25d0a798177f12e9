import GRDB

extension StoreSchema {
    /// The user's activity goals over time. Summaries themselves are not stored: they are
    /// computed from samples at each query, under the reader's scope.
    static func registerActivitySummaries(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10: activity summaries") { db in
            try db.execute(sql: """
                -- One row per change of goals: the goals that apply from effective_from (a local
                -- calendar day, YYYY-MM-DD, which sorts as text) until the next later row. They
                -- are the user's settings: an app reaches them only for days on which its scope
                -- admits the user's own data (ActivitySummaryRepository.settings).
                CREATE TABLE activity_goals (
                    effective_from TEXT PRIMARY KEY,
                    set_us INTEGER NOT NULL,        -- when the user made the change
                    move_kcal REAL NOT NULL,
                    exercise_min REAL NOT NULL,
                    stand_hours REAL NOT NULL,
                    move_time_min REAL NOT NULL
                ) WITHOUT ROWID;
                """)
        }
    }
}
