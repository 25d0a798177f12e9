public import Foundation
import GRDB
public import HealthModel

/// Workout routes: a builder's locations collect in `route_drafts` (one call per chunk, each
/// durable), `finishRoute` turns them into a route object associated with its workout, and
/// `routeLocations` streams a route back.
extension SampleRepository {
    /// How long an unfinished route is kept for a builder that never finishes it (the app
    /// crashed, or dropped the builder): long enough to survive a restart mid-workout.
    static let draftLifetime: TimeInterval = 7 * 24 * 3600

    /// Appends validated `locations` to `source`'s unfinished route `builderID` (opened by the
    /// first call) and returns how many locations it holds now.
    public func insertRouteData(_ locations: [RouteLocation], builderID: UUID, source: SourceRecord,
                                now: Date = Date()) async throws -> Int {
        try await commits.submit(returning: { db in
            try Self.insertDraftLocations(locations, builderID: builderID, source: source, now: now, db)
        })
    }

    /// `insertRouteData` inside the caller's transaction (also the pending journal's merge of
    /// locations inserted while locked, with the time they were inserted).
    static func insertDraftLocations(_ locations: [RouteLocation], builderID: UUID, source: SourceRecord, now: Date,
                                     _ db: Database) throws -> Int {
        let sourceID = try Self.sourceID(db, source)
        let draft = try Self.draft(db, builderID: builderID, sourceID: sourceID, now: now)
        let total = draft.count + locations.count
        guard total <= SampleLimits.maximumRouteLocations else {
            throw HKError(.errorDataSizeExceeded, "a route holds at most \(SampleLimits.maximumRouteLocations) locations")
        }
        let insert = try db.cachedStatement(sql: """
            INSERT INTO route_draft_locations (draft_id, position, time_us, latitude, longitude, altitude,
                horizontal_accuracy, vertical_accuracy, course, speed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (offset, location) in locations.enumerated() {
            try insert.execute(arguments: [
                draft.id, draft.count + offset, location.timestamp.microsecondsSince1970, location.latitude,
                location.longitude, location.altitude, location.horizontalAccuracy, location.verticalAccuracy,
                location.course, location.speed,
            ])
        }
        try db.execute(sql: "UPDATE route_drafts SET location_count = ? WHERE id = ?", arguments: [total, draft.id])
        return total
    }

    /// Stores `source`'s unfinished route `builderID` as a route of its workout `workoutUUID`
    /// (metadata already validated), associates the two, and returns the route as stored. The
    /// route spans its first to its last location, which must lie inside the workout.
    public func finishRoute(builderID: UUID, workoutUUID: UUID, metadata: [String: MetadataValue], device: DeviceRecord?,
                            source: SourceRecord) async throws -> SampleRecord {
        try await commits.submit(returning: { db in
            try Self.finishDraft(builderID: builderID, workoutUUID: workoutUUID, metadata: metadata, device: device,
                                 source: source, db)
        })
    }

    /// `finishRoute` inside the caller's transaction (also the pending journal's merge of a route
    /// finished while locked, given the UUID the app was answered with through `uuidSupply`).
    static func finishDraft(builderID: UUID, workoutUUID: UUID, metadata: [String: MetadataValue], device: DeviceRecord?,
                            source: SourceRecord, _ db: Database, minting uuidSupply: UUIDSupply = UUIDSupply()) throws -> SampleRecord {
        guard let workoutID = try OwnedObjects.rowID(db, uuid: workoutUUID, typeIdentifier: HKWorkoutTypeIdentifier,
                                                     appID: source.bundleIdentifier) else {
            throw HKError(.errorInvalidArgument, "the workout was not found among the workouts this app saved")
        }
        guard let workout = try Row.fetchOne(db, sql: "SELECT start_us, end_us FROM objects WHERE id = ?", arguments: [workoutID]) else {
            throw StoreIntegrityError.missingRowJustWritten("the workout found for the route")
        }
        let sourceID = try Self.sourceID(db, source)
        guard let draft = try Row.fetchOne(db, sql: """
            SELECT d.id, d.location_count, min(l.time_us) AS first_us, max(l.time_us) AS last_us
            FROM route_drafts d JOIN route_draft_locations l ON l.draft_id = d.id
            WHERE d.source_id = ? AND d.builder_id = ? GROUP BY d.id
            """, arguments: [sourceID, builderID]) else {
            throw HKError(.errorInvalidArgument, "this route builder holds no locations; insert route data before finishing the route")
        }
        let first = Date(microsecondsSince1970: draft["first_us"])
        let last = Date(microsecondsSince1970: draft["last_us"])
        try RouteLocationValidator.checkInside(Date(microsecondsSince1970: workout["start_us"]),
                                               Date(microsecondsSince1970: workout["end_us"]),
                                               firstLocation: first, lastLocation: last)
        var route = SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutRouteTypeIdentifier, startDate: first, endDate: last,
                                 value: .workoutRoute(locationCount: draft["location_count"]), metadata: metadata,
                                 device: device)
        route.uuid = try Self.write([route], source: source, db, minting: uuidSupply)[0]
        route.source = source
        guard let routeID = try Int64.fetchOne(db, sql: "SELECT id FROM objects WHERE uuid = ?", arguments: [route.uuid]) else {
            throw StoreIntegrityError.missingRowJustWritten("the route object")
        }
        // A route ignored by its sync version keeps the locations it was stored with.
        let stored = (try Int.fetchOne(db, sql: "SELECT count(*) FROM route_locations WHERE route_id = ?", arguments: [routeID]) ?? 0)
        if stored == 0 {
            try db.execute(sql: """
                INSERT INTO route_locations (route_id, position, time_us, latitude, longitude, altitude,
                    horizontal_accuracy, vertical_accuracy, course, speed)
                SELECT ?, row_number() OVER (ORDER BY time_us, position) - 1, time_us, latitude, longitude, altitude,
                    horizontal_accuracy, vertical_accuracy, course, speed
                FROM route_draft_locations WHERE draft_id = ?
                """, arguments: [routeID, draft["id"] as Int64])
        } else {
            route.value = .workoutRoute(locationCount: stored)
        }
        // The write's change number (v64), as every association carries; the route cap is
        // checked there (`WorkoutAssociation`), with every other way a route reaches a workout.
        try WorkoutAssociation.add(db, workoutID: workoutID, sampleID: routeID, isRoute: true)
        try db.execute(sql: "DELETE FROM route_drafts WHERE id = ?", arguments: [draft["id"] as Int64])
        return route
    }

    /// The one check that a workout takes one more route (`SampleLimits.maximumRoutesPerWorkout`),
    /// made by `WorkoutAssociation.add` for every route new to a workout: errorInvalidArgument
    /// naming the cap. Deleting the workout deletes its routes in one writer transaction, so their number
    /// bounds that transaction.
    static func checkRouteRoom(workoutID: Int64, _ db: Database) throws {
        let routes = try Int.fetchOne(db, sql: """
            SELECT count(*) FROM workout_associations a JOIN objects o ON o.id = a.sample_id
            WHERE a.workout_id = ? AND o.type_id = ?
            """, arguments: [workoutID, try SampleSQL.typeID(db, HKWorkoutRouteTypeIdentifier)]) ?? 0
        guard routes < SampleLimits.maximumRoutesPerWorkout else {
            throw HKError(.errorInvalidArgument, "a workout may have at most \(SampleLimits.maximumRoutesPerWorkout) routes, "
                          + "and this one has \(routes); add the locations to one of its routes instead")
        }
    }

    /// Streams the locations of route `routeUUID`, in time order, in batches of `batchSize`,
    /// within `scope`; the last batch is marked done. A route outside `scope` and one that does
    /// not exist both fail with `errorNoData`.
    public func routeLocations(_ routeUUID: UUID, scope: ReadScope, batchSize: Int = 2_000,
                               emit: ([RouteLocation], _ done: Bool) throws -> Void) throws {
        _ = try routeLocations(routeUUID, scope: scope, batchSize: batchSize, from: 0) { batch, done in
            try emit(batch, done)
            return true
        }
    }

    /// `routeLocations` for a reader whose view may go stale while it streams (the broker's
    /// `StreamVisibility`): `emit` returns false when it did not send the batch; the reading then
    /// stops and returns how many locations were sent (nil once the last batch was). Called again
    /// `from` that count, with the scope in force now, it looks the route up again — one the
    /// reader lost fails as a missing one — and goes on after them: a finished route's locations
    /// never change. `snapshot`: the stream's, which records each reading's change number (the
    /// question of whether a later deletion was one its reader could see starts there).
    public func routeLocations(_ routeUUID: UUID, scope: ReadScope, batchSize: Int = 2_000, from skipped: Int,
                               within snapshot: ReadSnapshot? = nil,
                               emit: ([RouteLocation], _ done: Bool) throws -> Bool) throws -> Int? {
        try writer.read { db in
            try snapshot?.recordReading(db)
            let visible = SampleSQL.visibility(scope)
            guard let routeID = try Int64.fetchOne(db, sql: """
                SELECT o.id FROM objects o
                WHERE o.uuid = ? AND o.type_id = ? AND \(visible.sql)
                """, arguments: [routeUUID, try SampleSQL.typeID(db, HKWorkoutRouteTypeIdentifier)] + visible.arguments) else {
                throw HKError(.errorNoData, "no workout route with this UUID is available to this app")
            }
            let total = (try Int.fetchOne(db, sql: "SELECT count(*) FROM route_locations WHERE route_id = ?", arguments: [routeID]) ?? 0)
            let skipped = max(0, skipped)
            var sent = skipped
            var batch: [RouteLocation] = []
            batch.reserveCapacity(min(batchSize, total))
            let rows = try Row.fetchCursor(db, sql: """
                SELECT time_us, latitude, longitude, altitude, horizontal_accuracy, vertical_accuracy, course, speed
                FROM route_locations WHERE route_id = ? ORDER BY position LIMIT -1 OFFSET ?
                """, arguments: [routeID, skipped])
            while let row = try rows.next() {
                batch.append(RouteLocation(
                    timestamp: Date(microsecondsSince1970: row["time_us"]), latitude: row["latitude"], longitude: row["longitude"],
                    altitude: row["altitude"], horizontalAccuracy: row["horizontal_accuracy"],
                    verticalAccuracy: row["vertical_accuracy"], course: row["course"], speed: row["speed"]))
                if batch.count == batchSize {
                    guard try emit(batch, sent + batch.count == total) else { return sent }
                    sent += batch.count
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty || total == 0 {
                guard try emit(batch, true) else { return sent }
            }
            return nil
        }
    }

    /// `source`'s draft for `builderID`, opened if new. Opening one first drops the source's
    /// drafts older than `draftLifetime`, then refuses past `maximumOpenRouteBuilders`.
    private static func draft(_ db: Database, builderID: UUID, sourceID: Int64, now: Date) throws -> (id: Int64, count: Int) {
        if let row = try Row.fetchOne(db, sql: "SELECT id, location_count FROM route_drafts WHERE source_id = ? AND builder_id = ?",
                                      arguments: [sourceID, builderID]) {
            return (row["id"], row["location_count"])
        }
        let nowMicros = now.microsecondsSince1970
        try db.execute(sql: "DELETE FROM route_drafts WHERE source_id = ? AND created_us < ?",
                       arguments: [sourceID, nowMicros - Int64(draftLifetime * 1_000_000)])
        let open = (try Int.fetchOne(db, sql: "SELECT count(*) FROM route_drafts WHERE source_id = ?", arguments: [sourceID]) ?? 0)
        guard open < SampleLimits.maximumOpenRouteBuilders else {
            throw HKError(.errorInvalidArgument,
                          "this app has \(open) unfinished route builders, at most \(SampleLimits.maximumOpenRouteBuilders) are allowed; finish one first")
        }
        guard let id = try Int64.fetchOne(db, sql: """
            INSERT INTO route_drafts (source_id, builder_id, created_us, location_count) VALUES (?, ?, ?, 0) RETURNING id
            """, arguments: [sourceID, builderID, nowMicros]) else {
            throw StoreIntegrityError.missingRowJustWritten("the new route draft's id")
        }
        return (id, 0)
    }
}
