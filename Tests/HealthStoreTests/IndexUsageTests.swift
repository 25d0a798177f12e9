import Foundation
import GRDB
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

/// Issue 17: every index on the per-sample tables costs a B-tree insert for every sample saved,
/// so each must earn its place by a query plan that uses it. This runs every statement shape the
/// store issues over `objects` and `deleted_objects` — each read kind × predicate kind × read
/// scope of `VisibleRowsPlanTests` (with all sources added), the writes (saves, sync-identifier
/// replacements, correlations, workouts, routes, imports), every kind of deletion, the change
/// feed and the commit watcher, statistics and activity summaries — records the statements
/// SQLite was given, explains each, and fails for an index no plan uses.
///
/// Constraint indexes (`sqlite_autoindex_…`, from UNIQUE and PRIMARY KEY) are left out: they
/// enforce a rule, whatever the plans. The test fails as it should when an index nothing needs
/// is added (`anIndexNoStatementUsesIsReported`).
@Suite(.timeLimit(.minutes(10))) struct IndexUsageTests {
    static let tables = ["objects", "deleted_objects"]

    @Test func everyIndexOnTheSampleTablesIsUsedByAPlan() async throws {
        let (writer, used) = try await Self.indexesUsedByEveryStatementShape()
        let unused = try Self.indexes(writer).subtracting(used)
        #expect(unused.isEmpty, "indexes no statement of the store uses: \(unused.sorted())")
    }

    /// The check itself: an index on `objects` that no statement's plan can use is reported.
    @Test func anIndexNoStatementUsesIsReported() async throws {
        let (writer, used) = try await Self.indexesUsedByEveryStatementShape { db in
            // Metadata is matched through json_each, which no index on the column can serve.
            try db.execute(sql: "CREATE INDEX objects_by_metadata ON objects(metadata)")
        }
        #expect(try Self.indexes(writer).subtracting(used) == ["objects_by_metadata"])
    }

    /// The explicitly created indexes of `tables`.
    static func indexes(_ writer: DatabaseQueue) throws -> Set<String> {
        try writer.read { db in
            try Set(String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master
                WHERE type = 'index' AND tbl_name IN (SELECT value FROM json_each(?)) AND name NOT LIKE 'sqlite_autoindex_%'
                """, arguments: [SampleSQL.jsonArray(tables)]))
        }
    }

    /// Runs every statement shape on a fresh in-memory store (after `alter`, to test the check)
    /// and returns the store and the indexes the plans of the statements it ran use.
    static func indexesUsedByEveryStatementShape(
        alter: (Database) throws -> Void = { _ in }) async throws -> (DatabaseQueue, Set<String>) {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(function: SampleSQL.uuidBlob)
            db.add(function: SampleSQL.quantityConversion)
        }
        let writer = try DatabaseQueue(configuration: configuration)
        let database = try HealthDatabase(writer: writer)
        try writer.inDatabase(alter)
        let executed = Mutex<Set<String>>([])
        writer.inDatabase { db in
            db.trace { event in
                if case let .statement(statement) = event { executed.withLock { _ = $0.insert(statement.expandedSQL) } }
            }
        }
        try await Self.runEveryShape(database)
        writer.inDatabase { db in db.trace(nil) }

        let statements = executed.withLock { $0 }.filter { sql in
            let head = sql.drop { $0.isWhitespace }.prefix(6).uppercased()
            return ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH "].contains { head.hasPrefix($0) }
                && Self.tables.contains { sql.contains($0) }
        }
        #expect(statements.count > 50, "the workload ran too few statements to judge: \(statements.count)")
        let used = try await writer.read { db in
            var used = Set<String>()
            for sql in statements {
                for step in try ChangeFeedQueryPlanTests.steps(db, sql) {
                    if let index = Self.index(in: step.detail) { used.insert(index) }
                }
            }
            return used
        }
        return (writer, used)
    }

    /// The index a plan step reads ("SEARCH o USING COVERING INDEX x (…)", "SCAN o USING INDEX x").
    static func index(in detail: String) -> String? {
        guard let range = detail.range(of: "INDEX ") else { return nil }
        return detail[range.upperBound...].split(separator: " ").first.map(String.init)
    }

    /// Every way the store writes, reads and deletes samples.
    static func runEveryShape(_ database: HealthDatabase) async throws {
        let samples = database.samples
        let start = VisibilityChokePointTests.start
        let reader = SourceRecord(bundleIdentifier: VisibleRowsPlanTests.reader, name: "Reader", version: "1")
        let other = VisibilityChokePointTests.other

        // Writes: plain samples with a device and metadata, a correlation, a workout (by `fill`),
        // sync-identifier saves (new, replaced, ignored), a route, an association, an import.
        let workout = try await VisibleRowsPlanTests.fill(database)
        let changeBefore = try database.changeFeed.currentChange()
        for version in [1.0, 2.0, 1.0] {
            _ = try await samples.insert([ObjectDeleterTests.workout(sync: version)], source: other)
        }
        let saved = try await samples.insert([ObjectDeleterTests.workout(), ObjectDeleterTests.heartRate(minute: 1)], source: reader)
        try await samples.associate([saved[1]], with: saved[0], appID: reader.bundleIdentifier)
        let builder = UUID()
        _ = try await samples.insertRouteData([RouteLocation(timestamp: start.addingTimeInterval(5), latitude: 1, longitude: 2)],
                                              builderID: builder, source: reader)
        let route = try await samples.finishRoute(builderID: builder, workoutUUID: saved[0], metadata: [:], device: nil, source: reader)
        var imported = CorrelationRepositoryTests.reading(120, 80, minute: 5)
        imported.metadata[SampleRecord.importIdentityKey] = .string("reading-5")
        guard case let .correlation(members) = imported.value else { throw IndexUsageTestsFailure("a reading is a correlation") }
        var synced = ObjectDeleterTests.heartRate(minute: 7)
        synced.metadata = [HKMetadataKeySyncIdentifier: .string("hr-7"), HKMetadataKeySyncVersion: .number(1)]
        let importSource = SourceRecord(bundleIdentifier: "com.apple.health.import", name: "Watch", version: "1")
        for _ in 0..<2 {  // the second import finds everything already held
            // The workout first: a route names its workout by its place among the UUIDs stored.
            _ = try await samples.importBatch([ObjectDeleterTests.workout(sync: 1)] + members + [imported, synced],
                                              routes: [.init(workoutIndex: 0, locations: [
                                                  RouteLocation(timestamp: start.addingTimeInterval(10), latitude: 1, longitude: 2),
                                              ], syncIdentifier: "route-1")],
                                              source: importSource)
        }

        // Reads: every read kind × predicate × scope, all sources included.
        let scopes = VisibleRowsPlanTests.scopes + [("all", Visibility(scope: .allSources, workouts: .allSources, correlations: .allSources))]
        for read in VisibilityChokePointTests.Read.allCases {
            for (_, visibility) in scopes {
                for (_, predicate) in VisibleRowsPlanTests.predicates(workout: workout, read: read) {
                    _ = try VisibilityChokePointTests.matches(read, predicate, visibility, database)
                }
                _ = try database.changeFeed.changes(of: VisibilityChokePointTests.heartRate, matching: nil, scope: visibility,
                                                    after: ChangeCursor(completeThrough: changeBefore), limit: 1)
                _ = try database.changeFeed.hasChanges(of: VisibilityChokePointTests.heartRate, matching: nil, scope: visibility,
                                                       after: changeBefore)
                _ = try database.activitySummaries.summaries(ActivitySummaryQuerySpec(timeZoneIdentifier: "UTC"), scope: visibility)
            }
        }
        for scope in scopes.map(\.1.scope) {
            try? samples.routeLocations(route.uuid, scope: scope) { _, _ in }
        }
        _ = try samples.ownObjectTypes([saved[1], route.uuid], appID: reader.bundleIdentifier)

        // Deletions: by reference, by predicate, by the user's manager, and a whole source.
        _ = try await samples.deleteMatching(typeIdentifier: VisibilityChokePointTests.heartRate,
                                             predicate: .dateRange(start: start, end: nil, strictStart: false, strictEnd: false),
                                             appID: reader.bundleIdentifier, workouts: .allSources)
        _ = try await samples.delete([ObjectReference(typeIdentifier: HKWorkoutTypeIdentifier, uuid: saved[0])],
                                     appID: reader.bundleIdentifier)
        _ = try await samples.deleteAnySource(uuids: [workout], dryRun: false)
        _ = try await samples.deleteAnySource(typeIdentifier: CorrelationRepositoryTests.bloodPressure, predicate: nil, dryRun: false)
        _ = try await samples.deleteAll(fromSource: importSource.bundleIdentifier)
        _ = try database.changeFeed.changes(of: HKWorkoutTypeIdentifier, matching: nil, scope: .ownSamples(appID: reader.bundleIdentifier),
                                            after: ChangeCursor(completeThrough: changeBefore), limit: 0)
    }
}

struct IndexUsageTestsFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
