import GRDB

extension StoreSchema {
    /// Workouts, their events, associations, routes and route builders' unfinished routes; and
    /// the time span of deleted objects. Side tables hang off `objects` with ON DELETE CASCADE, so
    /// deleting an object (ObjectDeletion) can never leave rows of it behind.
    static func registerWorkouts(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4: workouts and routes") { db in
            try db.execute(sql: """
                -- One row per HKWorkout object; totals in kcal and m (the canonical units).
                CREATE TABLE workouts (
                    object_id INTEGER PRIMARY KEY REFERENCES objects(id) ON DELETE CASCADE,
                    activity_type INTEGER NOT NULL,
                    duration REAL NOT NULL,
                    total_energy_kcal REAL,
                    total_distance_m REAL
                );
                CREATE INDEX workouts_by_activity ON workouts(activity_type);
                CREATE TABLE workout_events (
                    workout_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,       -- 0, 1, ... in chronological order
                    type INTEGER NOT NULL,
                    start_us INTEGER NOT NULL,
                    end_us INTEGER NOT NULL,
                    metadata TEXT,
                    PRIMARY KEY (workout_id, position)
                ) WITHOUT ROWID;
                -- add(_:to:) and a route's workout. Both sides are objects of one source.
                CREATE TABLE workout_associations (
                    workout_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    sample_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    PRIMARY KEY (workout_id, sample_id)
                ) WITHOUT ROWID;
                CREATE INDEX workout_associations_by_sample ON workout_associations(sample_id);
                -- A finished route's locations, in time order.
                CREATE TABLE route_locations (
                    route_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    time_us INTEGER NOT NULL,
                    latitude REAL NOT NULL, longitude REAL NOT NULL, altitude REAL NOT NULL,
                    horizontal_accuracy REAL NOT NULL, vertical_accuracy REAL NOT NULL,
                    course REAL NOT NULL, speed REAL NOT NULL,
                    PRIMARY KEY (route_id, position)
                ) WITHOUT ROWID;
                -- HKWorkoutRouteBuilder's route before finishRoute: encrypted like everything
                -- else, and kept across restarts as HealthKit keeps a builder's data.
                CREATE TABLE route_drafts (
                    id INTEGER PRIMARY KEY,
                    source_id INTEGER NOT NULL REFERENCES sources(id),
                    builder_id BLOB NOT NULL,        -- chosen by the app, unique per source
                    created_us INTEGER NOT NULL,
                    location_count INTEGER NOT NULL,
                    UNIQUE (source_id, builder_id)
                );
                CREATE TABLE route_draft_locations (
                    draft_id INTEGER NOT NULL REFERENCES route_drafts(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,       -- insertion order
                    time_us INTEGER NOT NULL,
                    latitude REAL NOT NULL, longitude REAL NOT NULL, altitude REAL NOT NULL,
                    horizontal_accuracy REAL NOT NULL, vertical_accuracy REAL NOT NULL,
                    course REAL NOT NULL, speed REAL NOT NULL,
                    PRIMARY KEY (draft_id, position)
                ) WITHOUT ROWID;
                -- The deleted object's span, for queries that filter deletions by time. NULL for
                -- deletions recorded before v4.
                ALTER TABLE deleted_objects ADD COLUMN start_us INTEGER;
                ALTER TABLE deleted_objects ADD COLUMN end_us INTEGER;
                """)
        }
    }
}
