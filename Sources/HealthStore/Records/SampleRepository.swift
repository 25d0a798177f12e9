public import Foundation
import GRDB
public import HealthModel

/// Which samples of a type a query may see. The broker's authorization engine decides; the
/// repository only applies it — inside the index, so hidden rows are never read at all.
public enum ReadScope: Sendable, Equatable {
    /// Every source's samples (read permission granted, or the user's own manager).
    case allSources
    /// Only the samples this app saved itself (read permission denied or never asked).
    case ownSamples(appID: String)
    /// A read grant limited to a window of recent data (`GrantLimits.dataWindow`): the app's own
    /// samples whatever their date, plus every source's samples starting at or after `since`.
    case recentWindow(appID: String, since: Date)
    /// A type read per object (vision prescriptions, `PerObjectAuthorization`): the app's own
    /// samples plus each object the user granted it (`object_read_grants`), each in its change
    /// feed from the grant on. Of deletions, its own and those of objects it held a grant for
    /// when they were deleted (`deleted_object_read_grants`).
    case ownAndGrantedObjects(appID: String)
}

/// Samples: atomic, group-committed inserts and scoped, streamed queries.
public struct SampleRepository: Sendable {
    let writer: any DatabaseWriter
    let commits: GroupCommitQueue

    init(writer: any DatabaseWriter, commits: GroupCommitQueue) {
        self.writer = writer
        self.commits = commits
    }

    /// Stores `records` (already validated and in canonical units) as saved by `source`, all or
    /// none, and returns once they are durably committed. UUIDs are minted here: one per
    /// record, each correlation's followed by those of its samples (`insertCorrelationObjects`).
    ///
    /// A record with a sync identity (`HKMetadataKeySyncIdentifier` + version) is an upsert within
    /// `source` (other sources' objects are never looked at): if `source` already holds an object
    /// with that identifier, a higher version replaces it (the old one is deleted and recorded in
    /// `deleted_objects`) and a lower or equal version is ignored. An ignored record still counts
    /// as saved, as in HealthKit; its returned UUID is that of the object that stays stored, so
    /// the app can find what the store holds under that identifier.
    ///
    /// Saves made concurrently share one transaction and one commit (GroupCommitQueue), each in
    /// its own savepoint: one save's failure never fails or drops another's.
    ///
    /// `accessLog`: the save's access-log entry, written in the same savepoint with the number
    /// of objects saved, so the save and its entry are one commit (one fsync) and neither is
    /// durable without the other.
    public func insert(_ records: [SampleRecord], source: SourceRecord, accessLog: AccessLogEntryDraft? = nil) async throws -> [UUID] {
        try await commits.submit { db in
            let uuids = try Self.write(records, source: source, db)
            if let accessLog { try AccessLogRepository.write(accessLog, count: uuids.count, db) }
            return uuids
        }
    }

    /// `insert` for a thread that may block until the commit (a connection's reader thread,
    /// never a pool thread): `GroupCommitQueue.submitBlocking`. The same transaction, entry and
    /// durability; when no commit is running, the calling thread commits the save itself.
    public func insertBlocking(_ records: [SampleRecord], source: SourceRecord,
                               accessLog: AccessLogEntryDraft? = nil) throws -> [UUID] {
        try commits.submitBlocking { db in
            let uuids = try Self.write(records, source: source, db)
            if let accessLog { try AccessLogRepository.write(accessLog, count: uuids.count, db) }
            return uuids
        }
    }

    /// How many saves and commits this store has seen: fewer commits than saves means saves
    /// were group-committed.
    public var commitStatistics: GroupCommitStatistics { commits.statistics }

    /// `minting`: where the new objects' UUIDs come from — fresh ones, or those a save accepted
    /// while the store was locked was answered with (`PendingEffect.save`).
    ///
    /// `syncedObjects`: when the caller has already looked up, in this transaction, what `source`
    /// stores under each record's sync identifier (one entry per record, nil for none), the
    /// upsert below uses that instead of looking each up again (`importBatch`). Only valid when
    /// no two records share an identifier.
    ///
    /// `dated`: for an import, which records' sync identities are dated (one entry per record;
    /// `SyncLookup` says what that changes). nil for every other write.
    static func write(_ records: [SampleRecord], source: SourceRecord, _ db: Database,
                      minting uuidSupply: UUIDSupply = UUIDSupply(), syncedObjects: [SyncedObject?]? = nil,
                      dated: [Bool]? = nil, systems: SampleInserter.SystemStamp = .source) throws -> [UUID] {
        let syncedObjects = syncedObjects?.count == records.count ? syncedObjects : nil
        let dated = dated?.count == records.count ? dated : nil
        var inserter = try SampleInserter(db, source: source, systems: systems)
        var uuids: [UUID] = []
        uuids.reserveCapacity(records.count)
        // By index, each record handed on borrowed: iterating the array copied every record
        // (its strings, metadata and device retained and released: a few per cent of healthd's
        // CPU in an import, issue 17).
        for index in records.indices {
            try write(records[index], presearched: syncedObjects.map { $0[index] }, dated: dated?[index] ?? false,
                      into: &uuids, using: &inserter, minting: uuidSupply, db)
        }
        // One charge per write, counted at its commit (`StorageUse`): an app's objects and devices.
        if let app = inserter.chargedApp { StorageUse.writing(db)?.charge(inserter.charged, appID: app, sourceID: inserter.sourceID) }
        return uuids
    }

    /// One record of `write`: `presearched` is what the caller found stored under its sync
    /// identifier (`.some(nil)`: nothing), nil when not looked up yet.
    private static func write(_ record: SampleRecord, presearched: SyncedObject??, dated: Bool, into uuids: inout [UUID],
                              using inserter: inout SampleInserter, minting uuidSupply: UUIDSupply, _ db: Database) throws {
        let sync = record.syncIdentity
        if let sync, let stored = try presearched
            ?? inserter.storedObject(syncIdentifier: sync.identifier, of: record, dated: dated, db) {
            guard sync.version > stored.version else {
                uuids.append(stored.uuid)
                uuidSupply.skip(record.mintedUUIDCount)
                return
            }
            try stored.replace(db, change: inserter.change)
        }
        let uuid = uuidSupply.next(startingAt: record.startDate)
        var quantity: Double?
        var category: Int?
        switch record.value {
        case let .quantity(value, _): quantity = value
        case let .category(value): category = value
        case .workout, .workoutRoute, .heartbeatSeries, .electrocardiogram, .stateOfMind, .scoredAssessment, .audiogram, .document,
             .clinicalRecord, .visionPrescription, .medicationDoseEvent, .userAnnotatedMedication:
            break  // side tables, written below
        case .correlation: break  // its samples are rows of their own, linked below
        }
        let rowID = try inserter.insert(record, uuid: uuid, quantity: quantity, category: category, sync: sync, dated: dated, db)
        if case let .workout(workout) = record.value {
            try WorkoutRows.insert(db, objectID: rowID, workout, sourceID: inserter.sourceID)
        }
        try SeriesRows.insert(db, objectID: rowID, record.value)
        if let series = record.quantitySeries { try QuantitySeriesRows.insert(db, objectID: rowID, series) }
        try StateOfMindRows.insert(db, objectID: rowID, record.value)
        try AssessmentRows.insert(db, objectID: rowID, record.value)
        try AudiogramRows.insert(db, objectID: rowID, record.value)
        try DocumentRows.insert(db, objectID: rowID, record.value)
        try ClinicalRecordRows.insert(db, objectID: rowID, record.value)
        try VisionPrescriptionRows.insert(db, objectID: rowID, record.value)
        try MedicationRows.insert(db, objectID: rowID, record.value)
        uuids.append(uuid)
        if case let .correlation(objects) = record.value {
            uuids += try insertCorrelationObjects(objects, of: rowID, using: &inserter, minting: uuidSupply, db)
        }
    }

    /// Runs `spec` within what `visibility` lets its reader see, handing results to `emit` in batches of `batchSize`, in one
    /// read transaction (a consistent snapshot). `emit` may throw to stop early.
    public func query(_ spec: SampleQuerySpec, scope visibility: Visibility, batchSize: Int = 500,
                      emit: ([SampleRecord]) throws -> Void) throws {
        try writer.read { db in
            try Self.visibleRows(spec, scope: visibility, db) { decoder, rows, _, _ in
                var batch: [SampleRecord] = []
                batch.reserveCapacity(batchSize)
                try rows.forEach { row in
                    batch.append(try decoder.record(row, typeIdentifier: spec.typeIdentifier, db))
                    if batch.count == batchSize {
                        try emit(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                if !batch.isEmpty { try emit(batch) }
            }
        }
    }

    /// The same rows as `query`, in the same order, but as `FetchedSampleBatch`es: plain
    /// quantity and category rows as scalars with their source and device by index, whole
    /// records only for the rest. What the broker streams to apps: the wire encoder writes plain
    /// rows straight into the frame instead of building a `SampleRecord` per row (issue 17).
    public func queryFetched(_ spec: SampleQuerySpec, scope visibility: Visibility, batching: ResultBatching<FetchedSampleBatch>,
                             emit: (FetchedSampleBatch) throws -> Void) throws {
        _ = try queryFetched(spec, scope: visibility, batching: batching, resuming: nil, within: ReadSnapshot()) { batch in
            try emit(batch)
            return true
        }
    }

    /// `queryFetched` in batches of `batchSize` rows, whatever their size: for readers inside
    /// healthd and tests; an answer sent to a peer is cut by bytes too (`batching:`).
    public func queryFetched(_ spec: SampleQuerySpec, scope visibility: Visibility, batchSize: Int = 500,
                             emit: (FetchedSampleBatch) throws -> Void) throws {
        try queryFetched(spec, scope: visibility, batching: .rows(batchSize), emit: emit)
    }

    /// `queryFetched` for a reader whose view may go stale while it streams (the broker's
    /// `StreamVisibility`): `emit` returns false when it did not send the batch, and the reading
    /// stops there and returns where it stopped; nil once every row was sent. Given that position
    /// again (`resuming`), with the scope in force now, it goes on after the last row sent, over
    /// the rows the first reading could see: every reading after the first is bounded by `snapshot`
    /// (the answer's `ReadSnapshot`, which the first records). Batches restart with it: a batch's
    /// source and device tables begin anew.
    ///
    /// Batches are cut by `batching` (its `measure` is handed the batch with the row to measure
    /// last): a row that would take the batch past its bytes opens the next batch instead.
    public func queryFetched(_ spec: SampleQuerySpec, scope visibility: Visibility, batching: ResultBatching<FetchedSampleBatch>,
                             resuming resume: SampleQueryResume?, within snapshot: ReadSnapshot,
                             emit: (FetchedSampleBatch) throws -> Bool) throws -> SampleQueryResume? {
        try writer.read { db in
            let through = try snapshot.confinement(db)
            var position = resume ?? SampleQueryResume()
            guard let limit = position.remainingLimit(spec.limit) else { return nil }
            var batch = FetchedSampleBatch(typeIdentifier: spec.typeIdentifier, unit: "")
            var bound = BatchBound(maxCount: batching.rows, maxBytes: batching.bytes)
            var stopped = false
            /// Sends the batch; false when the reader's view went stale (the reading stops).
            func send(endingAt keys: ResumeKeys) throws -> Bool {
                guard try emit(batch) else { return false }
                position.advance(by: batch.rows.count, lastKeys: keys.values, lastID: keys.id)
                // The source and device tables stay: later rows' indexes point into them.
                batch.rows.removeAll(keepingCapacity: true)
                batch.records.removeAll(keepingCapacity: true)
                bound.reset()
                return true
            }
            try Self.visibleRows(spec, scope: visibility, after: resume == nil ? nil : position, through: through, limit: limit, db) {
                decoder, rows, keyColumns, keysOf in
                batch = FetchedSampleBatch(typeIdentifier: spec.typeIdentifier, unit: decoder.canonicalUnit(of: spec.typeIdentifier))
                batch.rows.reserveCapacity(batching.rows)
                // `forEach`: GRDB steps the statement in one loop (one busy check per query).
                try rows.forEach { row in
                    try decoder.fetch(row, into: &batch, db)
                    let size = batching.measure(batch)
                    if bound.closesBefore(adding: size), let moved = batch.popLast(),
                       let last = batch.rows.last {
                        // The row does not fit: the batch goes without it, ending at the row before,
                        // whose sort keys are looked up by its UUID — rare (large rows), so no row's
                        // keys are read on the way.
                        guard try send(endingAt: try keysOf(last.uuid)) else {
                            stopped = true
                            throw StopReading()
                        }
                        batch.append(moved.row, record: moved.record)
                    }
                    bound.add(size)
                    if bound.isFull {
                        var keys = ResumeKeys()
                        keys.read(row, keyColumns, id: decoder.objectID(row))
                        guard try send(endingAt: keys) else {
                            stopped = true
                            throw StopReading()
                        }
                    }
                }
            }
            if stopped { return position }
            // The last batch: nothing resumes after it, so where it ends is never read.
            if !batch.rows.isEmpty, try !emit(batch) { return position }
            return nil
        }
    }

    /// Thrown from inside a row loop to leave it (caught by `visibleRows`'s caller only).
    private struct StopReading: Error {}

    /// The one place a sample query's statement is made: the type, the reader's visibility and
    /// the predicate (compiled within that visibility), in the spec's order and limit. Both
    /// `query` and `queryFetched` read only the rows this hands to `body`, with the column
    /// indexes of the sort keys (`SampleQueryResume`). `after`: a continuation, confined further
    /// by its position; `through`: the answer's first reading's change number, for a reading after
    /// it (`ReadSnapshot`); `limit` replaces the spec's (0: none).
    private static func visibleRows(_ spec: SampleQuerySpec, scope visibility: Visibility, after: SampleQueryResume? = nil,
                                    through: Int64? = nil, limit: Int? = nil, _ db: Database,
                                    _ body: (inout SampleRowDecoder, RowCursor, [Int], _ keysOf: (UUID) throws -> ResumeKeys) throws -> Void) throws {
        let typeID = try SampleSQL.typeID(db, spec.typeIdentifier)
        let terms = SampleSQL.orderTerms(spec.sort, workoutValues: visibility.workoutValues)
        var arguments = StatementArguments()
        for term in terms { arguments += term.arguments }
        var conditions = ["o.type_id = ?"]
        arguments += [typeID]
        let visible = SampleSQL.visibility(visibility.scope)
        conditions.append(visible.sql)
        arguments += visible.arguments
        if let predicate = spec.predicate {  // converted for its type by condition(_:of:within:_:)
            let compiled = try SampleSQL.condition(predicate, of: spec.typeIdentifier, within: visibility.bounded(through: through), db)
            conditions.append("(\(compiled.sql))")
            arguments += compiled.arguments
        }
        if let through {
            conditions.append("o.change_seq <= ?")
            arguments += [through]
        }
        if let position = after?.condition(terms) {
            conditions.append(position.sql)
            arguments += position.arguments
        }
        let order = SampleSQL.orderBy(spec.sort, workoutValues: visibility.workoutValues)
        arguments += order.arguments
        let keys = terms.indices.map { ", \(terms[$0].sql) AS resume_key_\($0)" }.joined()
        var sql = """
            SELECT \(SampleRowDecoder.columns)\(keys)
            FROM objects o
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(order.sql)
            """
        let limit = limit ?? spec.limit
        if limit > 0 {
            sql += " LIMIT ?"
            arguments += [limit]
        }
        let statement = try db.makeStatement(sql: sql)
        var decoder = SampleRowDecoder(statement, workoutValues: visibility.workoutValues)
        let keyColumns = terms.indices.compactMap { statement.index(ofColumn: "resume_key_\($0)") }
        // A row's sort keys and id, by its UUID: where a batch ends when the row after it did not fit.
        let keysOf = { (uuid: UUID) throws -> ResumeKeys in
            var keyArguments = StatementArguments()
            for term in terms { keyArguments += term.arguments }
            keyArguments += [uuid]
            let keySQL = terms.map { "\($0.sql), " }.joined()
            guard let row = try Row.fetchOne(db, sql: "SELECT \(keySQL)o.id FROM objects o WHERE o.uuid = ?", arguments: keyArguments),
                  let id = row[terms.count] as Int64? else {
                throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "a row read in this reading is gone from it")
            }
            var keys = ResumeKeys()
            keys.read(row, Array(terms.indices), id: id)
            return keys
        }
        do {
            try body(&decoder, try Row.fetchCursor(statement, arguments: arguments), keyColumns, keysOf)
        } catch is StopReading {
            return
        }
    }

    public func count() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") ?? 0 }
    }

    // MARK: - Rows

    /// The type's row id, made on its first save. A lookup first: the upsert alone would rewrite
    /// the row (a page write) on every call.
    static func typeID(_ db: Database, _ identifier: String) throws -> Int64 {
        if let known = try SampleSQL.knownTypeID(db, identifier) { return known }
        return try returnedID(db.cachedStatement(sql: """
            INSERT INTO sample_types (identifier) VALUES (?)
            ON CONFLICT(identifier) DO UPDATE SET identifier = excluded.identifier RETURNING id
            """), arguments: [identifier])
    }

    /// The source's row id, made with `source`'s name on its first write. A write never renames
    /// a source: the name every read shows would then tell readers of writes they may not see
    /// (a reinstall under a new name, then only hidden writes). `AppRepository.install` renames
    /// an installed app's source instead (SECURITY.md "Source order and names").
    ///
    /// A lookup first, as for types: an upsert alone rewrites the row on every save, and a
    /// rewritten page is one more WAL frame encrypted, written and checkpointed for a one-sample
    /// save (issue 17). Only a new source writes.
    /// The save path's look-ups, found without GRDB's look-up by SQL text (`StatementSlot`).
    private static let sourceLookupSlot = StatementSlot("SELECT id FROM sources WHERE bundle_identifier = ?")
    private static let systemLookupSlot = StatementSlot("SELECT id FROM source_systems WHERE product_type = ? AND os_version = ?")
    private static let deviceLookupSlot = StatementSlot("SELECT id FROM devices WHERE fingerprint = ?")

    static func sourceID(_ db: Database, _ source: SourceRecord) throws -> Int64 {
        // Read straight from SQLite (`BoundStatement.readFirstRow`): this runs for every save.
        let lookup = try BoundStatement(db, Self.sourceLookupSlot)
        try lookup.bind(source.bundleIdentifier, at: 1)
        if let id = try lookup.readFirstRow({ $0.int64(0) }) {
            return id
        }
        return try returnedID(db.cachedStatement(sql: """
            INSERT INTO sources (bundle_identifier, name) VALUES (?, ?)
            ON CONFLICT(bundle_identifier) DO UPDATE SET bundle_identifier = excluded.bundle_identifier RETURNING id
            """), arguments: [source.bundleIdentifier, source.name])
    }

    /// The `source_systems` row of `source`'s product type and system version (v31), made on
    /// first use. '' and '0.0.0' stand for "not recorded" in its NOT NULL unique key.
    ///
    /// A lookup first, as for types, sources and devices: healthd stamps every app's save with
    /// its host (`AppManifest.source`), and the upsert alone rewrote the row's entry in the
    /// (product type, system version) index on every save — one more WAL frame encrypted,
    /// written, synced and checkpointed per durable save (`WALFramesPerSaveTests`).
    static func systemID(_ db: Database, _ source: SourceRecord) throws -> Int64 {
        let productType = source.productType ?? "", version = source.operatingSystemVersion.description
        return try storedOrInsertedID(
            db, lookup: systemLookupSlot,
            binding: { lookup in
                try lookup.bind(productType, at: 1)
                try lookup.bind(version, at: 2)
            },
            arguments: [productType, version],
            upsert: """
                INSERT INTO source_systems (product_type, os_version) VALUES (?, ?)
                ON CONFLICT(product_type, os_version) DO UPDATE SET product_type = excluded.product_type RETURNING id
                """)
    }

    /// The one shape of the save path's get-or-create rows (systems, devices): the row's id
    /// when `lookup` (its parameters bound by `binding`) finds it — no write, so a known row costs
    /// its commit no page — else the id `upsert` returns. An upsert alone dirties the row's pages
    /// even when nothing changes. The lookup runs for every save, so it is read straight from
    /// SQLite (`BoundStatement.readFirstRow`: GRDB's argument array and cursor cost more than the
    /// index search, issue 17).
    private static func storedOrInsertedID(_ db: Database, lookup: StatementSlot, binding: (BoundStatement) throws -> Void,
                                           arguments: StatementArguments, upsert: String) throws -> Int64 {
        let statement = try BoundStatement(db, lookup)
        try binding(statement)
        if let known = try statement.readFirstRow({ $0.int64(0) }) {
            return known
        }
        return try returnedID(db.cachedStatement(sql: upsert), arguments: arguments)
    }

    /// The id an upsert's `RETURNING id` gives: an upsert returns its row whether it inserted or
    /// updated, so no row means the statement is not what this code wrote.
    private static func returnedID(_ statement: Statement, arguments: StatementArguments) throws -> Int64 {
        guard let id = try Int64.fetchOne(statement, arguments: arguments) else {
            throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "an upsert returned no row", sql: statement.sql)
        }
        return id
    }

    private static func fields(of device: DeviceRecord) -> [String?] {
        [device.name, device.manufacturer, device.model, device.hardwareVersion, device.firmwareVersion,
         device.softwareVersion, device.localIdentifier, device.udiDeviceIdentifier]
    }

    /// The device's key in `devices`: every property, set or not, so equal devices (HKDevice's
    /// equality) share one row. Unit separator between fields: it cannot be confused with text
    /// inside one. `SampleSQL`'s device-list predicate matches on it.
    static func fingerprint(of device: DeviceRecord) -> String {
        fields(of: device).map { $0.map { "=" + $0 } ?? "-" }.joined(separator: "\u{1F}")
    }

    /// The device's row id, made on its first save. A lookup first: the upsert alone rewrites
    /// the row and its fingerprint index entry (two WAL frames) on every save.
    static func deviceID(_ db: Database, _ device: DeviceRecord) throws -> Int64 {
        let fingerprint = fingerprint(of: device)
        return try storedOrInsertedID(
            db, lookup: deviceLookupSlot, binding: { try $0.bind(fingerprint, at: 1) },
            arguments: StatementArguments([fingerprint] + fields(of: device).map { $0 as (any DatabaseValueConvertible)? }),
            upsert: """
                INSERT INTO devices (fingerprint, name, manufacturer, model, hardware_version, firmware_version,
                                     software_version, local_identifier, udi_device_identifier)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(fingerprint) DO UPDATE SET fingerprint = excluded.fingerprint RETURNING id
                """)
    }
}
