import GRDB

extension StoreSchema {
    /// v20: what a workout builder adds to a workout — totals of swimming strokes and flights
    /// climbed, iOS 16's activities, and the statistics the builder computed per quantity type
    /// (for the workout and for each activity). Side tables of `objects` like `workout_events`,
    /// deleted with their workout (ON DELETE CASCADE), read only through `WorkoutRows` for a
    /// workout row the reader may already see.
    static func registerWorkoutActivities(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v20: workout activities and statistics") { db in
            try db.execute(sql: """
                ALTER TABLE workouts ADD COLUMN total_swimming_strokes REAL;   -- count
                ALTER TABLE workouts ADD COLUMN total_flights_climbed REAL;    -- count
                CREATE TABLE workout_activities (
                    workout_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,       -- 0, 1, ... in chronological order
                    uuid BLOB NOT NULL,
                    activity_type INTEGER NOT NULL,
                    location_type INTEGER NOT NULL,
                    swimming_location_type INTEGER NOT NULL,
                    lap_length_m REAL,
                    start_us INTEGER NOT NULL,
                    end_us INTEGER NOT NULL,
                    metadata TEXT,
                    PRIMARY KEY (workout_id, position)
                ) WITHOUT ROWID;
                -- Values in the quantity type's canonical unit; NULL = not computed.
                CREATE TABLE workout_statistics (
                    workout_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    activity_position INTEGER NOT NULL,  -- -1: the whole workout
                    quantity_type TEXT NOT NULL,
                    start_us INTEGER NOT NULL,
                    end_us INTEGER NOT NULL,
                    sum REAL, average REAL, minimum REAL, maximum REAL, most_recent REAL,
                    PRIMARY KEY (workout_id, activity_position, quantity_type)
                ) WITHOUT ROWID;
                """)
        }
    }
}
