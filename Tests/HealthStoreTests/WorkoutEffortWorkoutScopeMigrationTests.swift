import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// v70 on a store with effort relations, removals and departures made before it: each row takes
/// its workout's source and start (relations and removals from the workout's row, departures from
/// `workout_effort_departed_workouts`, which goes), and every reader's answers — wake-up checks
/// and relationship queries with and without an anchor, for each pair of score and workout
/// scopes — are what they were before the upgrade.
///
/// The v69 store is made by the write path of today and then taken back to v69: the v70 indexes,
/// columns and migration record dropped, and the departures' workouts put back in the table v70
/// drops. That its tables are then a v69 store's is checked against a store migrated to v69
/// (columns, indexes and their SQL).
@Suite(.timeLimit(.minutes(10))) struct WorkoutEffortWorkoutScopeMigrationTests {
    static let effort = WorkoutEffortStoreTests.effort
    static let estimated = WorkoutEffortStoreTests.estimated
    static let reader = SourceRecord(bundleIdentifier: "org.example.reader", name: "Reader", version: "1")
    static let rater = WorkoutEffortStoreTests.rater
    static let watch = WorkoutEffortStoreTests.watch
    static let since = WorkoutEffortStoreTests.start.addingTimeInterval(86_400)
    static let v69 = "v69: effort relation changes walked by the scope's ranges"
    static let v70 = "v70: effort relation changes keep their workout's scope columns"
    static let tables = ["workout_effort_relations", "workout_effort_removals", "workout_effort_departed"]

    @Test func aV69StoreWithRelationsUpgradesAndEveryReaderAnswersAsBefore() async throws {
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer)
        let (cursor, workouts) = try await Self.relations(database)
        let before = try Self.answers(database, after: cursor, workouts: workouts)
        let columns = try Self.workoutColumns(writer)
        #expect(columns.count > 6, "\(columns)")
        #expect(Set(before.values).count > 4, "the readers should not all answer alike: \(before)")

        try await writer.write { db in try Self.takeBackToV69(db) }
        #expect(try Self.schema(writer) == Self.schema(Self.v69Store()))

        try StoreSchema.migrator.migrate(writer)
        let migrations = try await writer.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(migrations.contains(Self.v70))
        #expect(try Self.workoutColumns(writer) == columns)
        let after = try Self.answers(database, after: cursor, workouts: workouts)
        for (question, answer) in before.sorted(by: { $0.key < $1.key }) {
            #expect(after[question] == answer, "\(question): \(after[question] ?? "nothing") after v70, \(answer) before")
        }
    }

    static func workout(minute: Int) -> SampleRecord {
        let date = WorkoutEffortStoreTests.start.addingTimeInterval(Double(minute) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: date, endDate: date.addingTimeInterval(3600),
                            value: .workout(WorkoutValue(activityType: HKWorkoutActivityType.running.rawValue, duration: 3600)))
    }

    /// The reader's workout and the watch's (one before the window, two in it), scores of the
    /// reader and the rater in and before the window, related before and after the returned
    /// change number, one unrelated after it, and two of the watch's workouts deleted with their
    /// relations (and a removal) — one before, one after it.
    static func relations(_ database: HealthDatabase) async throws -> (Int64, [String: UUID]) {
        let later = 2 * 24 * 60
        let own = try await database.samples.insert([workout(minute: later)], source: reader)
        let theirs = try await database.samples.insert([workout(minute: 0), workout(minute: later + 60), workout(minute: later + 120),
                                                        workout(minute: 30)], source: watch)
        let ownScores = try await database.samples.insert([WorkoutEffortStoreTests.score(5, minute: later + 5),
                                                           WorkoutEffortStoreTests.score(4, minute: 10)], source: reader)
        let raterScores = try await database.samples.insert([WorkoutEffortStoreTests.score(6, minute: later + 10),
                                                             WorkoutEffortStoreTests.score(7, minute: 20),
                                                             WorkoutEffortStoreTests.score(8, minute: later + 20, type: estimated)], source: rater)
        func relate(_ score: UUID, _ workout: UUID, by source: SourceRecord, _ relate: Bool = true) async throws {
            try await WorkoutEffortHiddenWorkoutWalkTests.relate(score, to: [workout], by: source, relate: relate, database)
        }
        func delete(_ workout: UUID) async throws {
            _ = try await database.samples.delete([ObjectReference(typeIdentifier: HKWorkoutTypeIdentifier, uuid: workout)],
                                                  appID: watch.bundleIdentifier)
        }
        try await relate(ownScores[0], own[0], by: reader)
        try await relate(raterScores[0], theirs[0], by: rater)
        try await relate(raterScores[1], theirs[1], by: rater)
        try await relate(raterScores[0], theirs[2], by: rater)
        try await relate(raterScores[0], theirs[3], by: rater)
        try await relate(raterScores[1], theirs[3], by: rater)
        try await relate(raterScores[1], theirs[3], by: rater, false)
        try await delete(theirs[3])
        let cursor = try database.changeFeed.currentChange()
        try await relate(ownScores[1], theirs[0], by: reader)
        try await relate(ownScores[0], theirs[1], by: reader)
        try await relate(raterScores[2], own[0], by: rater)
        try await relate(raterScores[1], own[0], by: rater)
        try await relate(raterScores[0], theirs[2], by: rater, false)
        try await relate(ownScores[1], theirs[2], by: reader)
        try await delete(theirs[2])
        return (cursor, ["own": own[0], "watch's before the window": theirs[0], "watch's in the window": theirs[1]])
    }

    /// Every reader's answers: the checks of both effort types after change number 0 and after
    /// `after`, with and without a predicate, and the relationship query with and without that anchor.
    static func answers(_ database: HealthDatabase, after cursor: Int64, workouts: [String: UUID]) throws -> [String: String] {
        let id = reader.bundleIdentifier
        let scopes: [(String, ReadScope)] = [
            ("all", .allSources), ("own", .ownSamples(appID: id)), ("window", .recentWindow(appID: id, since: since)),
            ("the rater's own", .ownSamples(appID: rater.bundleIdentifier)),
            ("the watch's own", .ownSamples(appID: watch.bundleIdentifier)),
        ]
        var answers: [String: String] = [:]
        for (scoreName, scoreScope) in scopes {
            for (workoutName, workoutScope) in scopes {
                let reader = "scores \(scoreName), workouts \(workoutName)"
                let visibility = Visibility(scope: scoreScope, workouts: workoutScope, correlations: scoreScope)
                for type in [effort, estimated] {
                    for change in [0, cursor] {
                        for (name, workout) in [("", nil)] + workouts.sorted(by: { $0.key < $1.key }).map({ (", related to \($0.key)", $0.value) }) {
                            let predicate = workout.map { SamplePredicate.workoutEffort(workout: $0, activity: nil) }
                            answers["\(reader): check \(type) after \(change == 0 ? "0" : "the cursor")\(name)"] = try "\(database.changeFeed.hasChanges(of: type, matching: predicate, scope: visibility, after: change, includingWorkoutEffortRelations: true).changed)"
                        }
                    }
                }
                let workoutVisibility = Visibility(scope: workoutScope, workouts: workoutScope, correlations: workoutScope)
                let samples = [effort: scoreScope, estimated: scoreScope]
                for anchor in [nil, cursor] {
                    let answer = try database.samples.workoutEffortRelations(matching: nil, workouts: workoutVisibility, samples: samples,
                                                                             mostRelevant: false, maximumSamples: 100, after: anchor)
                    answers["\(reader): relationships\(anchor == nil ? "" : " after the cursor")"] = "\(answer.relations)"
                }
            }
        }
        return answers
    }

    /// Every relation, removal and departure with its workout's source and start.
    static func workoutColumns(_ writer: DatabaseQueue) throws -> [[String]] {
        try writer.read { db in
            try tables.flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY change_seq, type_id, source_id, start_us, workout_start_us").map { row in
                    [table] + row.columnNames.sorted().map { "\($0)=\(row[$0] as DatabaseValue)" }
                }
            }
        }
    }

    /// Drops what v70 added and puts back what it dropped.
    static func takeBackToV69(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE workout_effort_departed_workouts (
                workout_uuid BLOB PRIMARY KEY,
                source_id INTEGER NOT NULL,
                start_us INTEGER NOT NULL
            ) WITHOUT ROWID;
            INSERT OR REPLACE INTO workout_effort_departed_workouts (workout_uuid, source_id, start_us)
                SELECT workout_uuid, workout_source_id, workout_start_us FROM workout_effort_departed;
            """)
        for table in tables {
            let indexes = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND (sql LIKE '%workout_source_id%' OR sql LIKE '%workout_start_us%')
                """, arguments: [table])
            #expect(indexes.count == 6, "\(table): \(indexes)")
            for index in indexes {
                try db.execute(sql: "DROP INDEX \(index); DELETE FROM sqlite_stat1 WHERE idx = ?", arguments: [index])
            }
            try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN workout_source_id; ALTER TABLE \(table) DROP COLUMN workout_start_us")
        }
        try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [v70])
    }

    static func v69Store() throws -> DatabaseQueue {
        let writer = try SyncKeyTests.memoryStore()
        try StoreSchema.migrator.migrate(writer, upTo: v69)
        return writer
    }

    /// The effort tables' columns, indexes (with their SQL) and fixed statistics.
    static func schema(_ writer: DatabaseQueue) throws -> [String] {
        try writer.read { db in
            var lines: [String] = []
            for table in tables + ["workout_effort_departed_workouts"] {
                for column in try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_xinfo(?)",
                                                arguments: [table]) {
                    lines.append("\(table) column \(column)")
                }
                for index in try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name",
                                               arguments: [table]) {
                    lines.append("\(table) index \(index)")
                }
                for stat in try Row.fetchAll(db, sql: "SELECT idx, stat FROM sqlite_stat1 WHERE tbl = ? ORDER BY idx", arguments: [table]) {
                    lines.append("\(table) stat \(stat)")
                }
            }
            return lines
        }
    }
}
