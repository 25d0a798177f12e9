public import Foundation
import GRDB
public import HealthModel

extension SampleRepository {
    /// A route to store with an imported workout: the index of its workout in the batch, its
    /// locations in time order, and the sync identity that makes a second import of it a no-op.
    public struct ImportRoute: Sendable {
        public var workoutIndex: Int
        public var locations: [RouteLocation]
        public var syncIdentifier: String

        public init(workoutIndex: Int, locations: [RouteLocation], syncIdentifier: String) {
            self.workoutIndex = workoutIndex
            self.locations = locations
            self.syncIdentifier = syncIdentifier
        }
    }

    /// Stores an imported batch through the save path (`write`: the same rows, sync-identifier
    /// upserts, change numbers, group commit and insert statements as an app's save,
    /// `SampleInserter`), then each route as a route object associated with its workout — all in one transaction, so an interrupted import
    /// never leaves a workout without the route it came with. Tells apart what was new from what
    /// the source already held: a sample whose sync identifier the source stores at the same or a
    /// higher version changes nothing. Routes must be of workouts in `records` (one UUID each,
    /// which the caller guarantees by sending only workouts with routes).
    ///
    /// `dated`: one entry per record, true where the importer derived the record's sync identity
    /// from its type and start among the rest (`SyncLookup`: keyed by its start);
    /// empty (or of another length) for none. Ignored for a record without a sync identity.
    ///
    /// `accessLog`: the batch's access-log entry, written in the batch's transaction with the
    /// number of samples it added, as an app's save writes its own (`insert(_:source:accessLog:)`):
    /// one commit and one fsync per batch. Appended after the reply instead, each entry was a
    /// commit of its own that the batch's reply waited for, behind the next batch's commit — so
    /// healthd decoded the batch after next only once the writer had nothing left to do.
    public func importBatch(_ records: [SampleRecord], dated: [Bool] = [], routes: [ImportRoute] = [],
                            source: SourceRecord, accessLog: AccessLogEntryDraft? = nil) async throws -> ImportCounts {
        let dated = dated.count == records.count ? dated : [Bool](repeating: false, count: records.count)
        return try await commits.submit { db in
            let sourceID = try Self.sourceID(db, source)
            var unchanged = 0
            // Samples the source holds already (by sync identity, at the same or a higher version)
            // are left out of the write: looked up once here, not again by `write`'s upsert.
            var heldUUIDs: [Int: UUID] = [:]
            // What the source holds under each record's sync identifier (nil: nothing), handed to
            // `write` so that its upsert does not look the same identifiers up a second time.
            var syncedObjects = [SyncedObject?](repeating: nil, count: records.count)
            // Each record's identity read once (two metadata lookups), for the check below too.
            let identities = records.map(\.syncIdentity)
            var lookup = try SyncLookup(sourceID: sourceID, source: source, db)
            for index in records.indices {
                guard let sync = identities[index] else { continue }
                let stored = try lookup.find(sync.identifier, of: records[index], dated: dated[index], db)
                syncedObjects[index] = stored
                guard let stored, stored.version >= sync.version else { continue }
                unchanged += 1
                heldUUIDs[index] = stored.uuid
            }
            // Correlations carry no sync identity (HealthKit allows none): one the source holds
            // already, by type, dates and import identity, is left out instead of stored twice.
            // Apple's export also lists each correlation's samples as top-level records
            // (`ImportedCorrelations`): those are stored once, as the correlation's.
            let correlations = try ImportedCorrelations(records, sourceID: sourceID, db) { heldUUIDs[$0] == nil }
            var seen = Set<String>()
            var storedPositions: [Int] = []
            storedPositions.reserveCapacity(records.count)
            for index in records.indices where heldUUIDs[index] == nil {
                // Read through the subscript, not bound to a copy of each record.
                if case .correlation = records[index].value, let identity = records[index].importIdentity {
                    guard seen.insert(identity).inserted, !correlations.holds(records[index], identity: identity) else {
                        unchanged += 1
                        continue
                    }
                } else if correlations.holdsAsMember(records[index]) {
                    unchanged += 1
                    continue
                }
                storedPositions.append(index)
            }
            // A first import stores every record of its batches: then the batch itself is written,
            // not a copy of each record.
            let stored = storedPositions.count == records.count ? records : storedPositions.map { records[$0] }
            let storedDated = storedPositions.count == records.count ? dated : storedPositions.map { dated[$0] }
            // Looked up before anything of the batch is written: valid for `write` only while no
            // two records share an identifier (the validator refuses that in one save; a batch
            // that does anyway is looked up again record by record).
            let identifiers = storedPositions.compactMap { identities[$0]?.identifier }
            let presearched = Set(identifiers).count == identifiers.count ? storedPositions.map { syncedObjects[$0] } : nil
            // Each record stamped with the product type and system its device names (Apple's
            // export keeps them only there), not the importing host's.
            let written = try Self.write(stored, source: source, db, syncedObjects: presearched, dated: storedDated,
                                         systems: .eachRecordsDevice)
            try ImportedCorrelations.dropTopLevelCopies(ofMembersOf: stored, sourceID: sourceID, db)
            // Routes travel only in batches of workouts, whose UUIDs `write` returns one per sample.
            var workoutUUIDs = heldUUIDs
            if !routes.isEmpty {
                for (position, uuid) in zip(storedPositions, written) { workoutUUIDs[position] = uuid }
            }
            var routesAdded = 0
            for route in routes {
                guard let workoutUUID = workoutUUIDs[route.workoutIndex] else {
                    throw HKError(.errorInvalidArgument, "an imported route names workout \(route.workoutIndex), which the batch does not store")
                }
                if try Self.storeImportedRoute(route, workoutUUID: workoutUUID, source: source, db) { routesAdded += 1 }
            }
            if let accessLog { try AccessLogRepository.write(accessLog, count: records.count - unchanged, db) }
            return ImportCounts(added: records.count - unchanged, unchanged: unchanged,
                                routesAdded: routesAdded, routesUnchanged: routes.count - routesAdded)
        }
    }

    /// What an imported batch added and what the store already held.
    public struct ImportCounts: Sendable, Equatable {
        public var added: Int
        public var unchanged: Int
        public var routesAdded: Int
        public var routesUnchanged: Int
    }

    /// Stores one route; false when its source already held it (a repeated import).
    private static func storeImportedRoute(_ route: ImportRoute, workoutUUID: UUID, source: SourceRecord, _ db: Database) throws -> Bool {
        guard let first = route.locations.first?.timestamp, let last = route.locations.last?.timestamp,
              let workout = try Row.fetchOne(db, sql: "SELECT id, start_us, end_us FROM objects WHERE uuid = ?", arguments: [workoutUUID]) else {
            throw HKError(.errorInvalidArgument, "an imported route needs locations and its workout")
        }
        try RouteLocationValidator.checkInside(Date(microsecondsSince1970: workout["start_us"]), Date(microsecondsSince1970: workout["end_us"]),
                                               firstLocation: first, lastLocation: last)
        let record = SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutRouteTypeIdentifier, startDate: first, endDate: last,
                                  value: .workoutRoute(locationCount: route.locations.count),
                                  metadata: [HKMetadataKeySyncIdentifier: .string(route.syncIdentifier), HKMetadataKeySyncVersion: .number(1)])
        let routeUUID = try write([record], source: source, db)[0]
        guard let routeID = try Int64.fetchOne(db, sql: "SELECT id FROM objects WHERE uuid = ?", arguments: [routeUUID]) else {
            throw StoreIntegrityError.missingRowJustWritten("the imported route object")
        }
        // A route already imported keeps the locations it was stored with.
        let isNew = try Int.fetchOne(db, sql: "SELECT count(*) FROM route_locations WHERE route_id = ?", arguments: [routeID]) == 0
        if isNew {
            let insert = try db.cachedStatement(sql: """
                INSERT INTO route_locations (route_id, position, time_us, latitude, longitude, altitude,
                    horizontal_accuracy, vertical_accuracy, course, speed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (position, location) in route.locations.enumerated() {
                try insert.execute(arguments: [
                    routeID, position, location.timestamp.microsecondsSince1970, location.latitude, location.longitude,
                    location.altitude, location.horizontalAccuracy, location.verticalAccuracy, location.course, location.speed,
                ])
            }
        }
        // The write's change number (v64), as every association carries.
        try WorkoutAssociation.insert(db, workoutID: workout["id"] as Int64, sampleID: routeID)
        return isNew
    }
}
