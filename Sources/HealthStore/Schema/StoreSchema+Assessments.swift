import GRDB

extension StoreSchema {
    /// GAD-7 and PHQ-9 assessments: the answers of each, one row per object, hanging off
    /// `objects` with ON DELETE CASCADE (deleting the sample can never leave its answers behind).
    /// One byte per answer in question order: an assessment is read whole, and 7 or 9 small
    /// integers do not earn a row each. The score and risk are derived (`ScoredAssessmentRules`),
    /// so they are not stored and cannot disagree with the answers.
    static func registerScoredAssessments(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v22: scored assessments") { db in
            try db.execute(sql: """
                CREATE TABLE scored_assessments (
                    object_id INTEGER PRIMARY KEY REFERENCES objects(id) ON DELETE CASCADE,
                    answers BLOB NOT NULL         -- one byte per question: the Answer raw value
                );
                """)
        }
    }
}
