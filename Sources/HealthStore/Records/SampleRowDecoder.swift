import Foundation
import GRDB
import GRDBSQLite
import HealthModel

/// Turns `objects` rows (selecting `Self.columns`) into `SampleRecord`s: the one decoder behind
/// sample queries, correlations and the change feed.
///
/// One decoder serves one statement, because what makes it fast is what it learns there.
/// Turning rows into records was most of a 10,000-sample query's time in the store
/// (Benchmarks/README.md, "Query benchmark"); each point below removes a per-row cost:
/// - Column positions are looked up once, by name, from the statement. GRDB's by-name
///   subscript lowercases and searches the column names on every access.
/// - Sources and devices are read and decoded once per id, by primary key, instead of being
///   joined into every row. A query's rows come from a handful of apps and devices: a join
///   repeats the same lookup and the same string copies (up to ten) for each row.
/// - Whether a type keeps its value in a side table (workouts, routes) is decided once per
///   type; other types never look there.
/// - Columns are read from the statement's current row through SQLite's C API, not through
///   GRDB's typed subscripts (each a generic conversion and checks per value, ten values a row):
///   the rows handed in are always the current row of a cursor over the decoder's statement.
struct SampleRowDecoder {
    /// The columns `record(_:typeIdentifier:_:)` reads, over `objects o`. A statement may
    /// select more columns around them.
    static let columns = """
        o.id, o.uuid, o.start_us, o.end_us, o.quantity, o.category, o.metadata,
        o.source_id, o.source_version, o.device_id, o.series_count, o.system_id
        """

    private let column: Columns
    private let statement: Statement
    private var handle: OpaquePointer { statement.sqliteStatement }
    private var sources: [Int64: SourceRecord] = [:]
    private var lastSource: (id: Int64, record: SourceRecord)?
    private var devices: [Int64: DeviceRecord] = [:]
    /// `source_systems` rows by id (v31), read once each: a store has one or two.
    private var systems: [Int64: (productType: String?, version: SystemVersion)] = [:]
    /// The last type decoded: queries and the change feed read one type, so this is the only
    /// entry they need; correlation samples alternate among a few types, each cheap to describe.
    private var lastType: StoredType?
    /// Where `fetch` put each (source, version) and device in its batch's tables.
    private var sourceIndexes: [SourceKey: Int32] = [:]
    private var lastSourceIndex: (key: SourceKey, index: Int32)?
    private var deviceIndexes: [Int64: Int32] = [:]

    private struct SourceKey: Hashable {
        let id: Int64
        let version: String?
        /// The row's `system_id`: one app's objects saved on two hosts are two revisions.
        let system: Int64?
    }

    /// Which workout totals and statistics the reader sees (`redacted`, applied in `record`).
    private let workoutValues: WorkoutValueScopes

    /// A decoder for rows of `statement`, which must select `Self.columns`, for a reader that
    /// sees the workout values `workoutValues` admits. Required: a decoder that forgot the
    /// reader would hand out values derived from types it may not read.
    init(_ statement: Statement, workoutValues: WorkoutValueScopes) {
        self.statement = statement
        self.workoutValues = workoutValues
        column = Columns(statement)
    }

    /// The `objects` row id of `row` (the current row of a cursor over the decoder's statement).
    func objectID(_ row: Row) -> Int64 { sqlite3_column_int64(handle, column.id) }

    /// The sample in `row` (the current row of a cursor over the decoder's statement), of type
    /// `typeIdentifier`, read in `db`'s current transaction.
    mutating func record(_ row: Row, typeIdentifier: String, _ db: Database) throws -> SampleRecord {
        let type = storedType(typeIdentifier)
        var value: SampleRecord.Value
        let objectID = sqlite3_column_int64(handle, column.id)
        if type.valueInSideTable, let stored = try WorkoutRows.value(objectID: objectID, typeIdentifier: typeIdentifier, db)
            ?? SeriesRows.value(objectID: objectID, typeIdentifier: typeIdentifier, db)
            ?? StateOfMindRows.value(objectID: objectID, typeIdentifier: typeIdentifier, db)
            ?? AssessmentRows.value(objectID: objectID, typeIdentifier: typeIdentifier, db)
            ?? AudiogramRows.value(objectID: objectID, typeIdentifier: typeIdentifier, db)
            ?? DocumentRows.value(objectID: objectID, typeIdentifier: typeIdentifier, db)
            ?? ClinicalRecordRows.value(objectID: objectID, typeIdentifier: typeIdentifier, db)
            ?? VisionPrescriptionRows.value(objectID: objectID, typeIdentifier: typeIdentifier, db)
            ?? MedicationRows.value(objectID: objectID, typeIdentifier: typeIdentifier, db) {
            value = stored
            if case let .workout(workout) = stored {
                // The one place a workout value leaves the store for a reader (`fetch` calls this too).
                value = .workout(workoutValues.redacted(workout, bundleIdentifier: try source(db).bundleIdentifier,
                                                        startUS: sqlite3_column_int64(handle, column.start)))
            }
        } else if sqlite3_column_type(handle, column.quantity) != SQLITE_NULL {
            value = .quantity(sqlite3_column_double(handle, column.quantity), unit: type.unit)
        } else {
            value = .category(Int(sqlite3_column_int64(handle, column.category)))  // NULL reads as 0
        }
        // Only a quantity series has a count (v23): other rows never look in its table.
        var quantitySeries: QuantitySeries?
        if case .quantity = value, sqlite3_column_type(handle, column.seriesCount) != SQLITE_NULL {
            quantitySeries = try QuantitySeriesRows.summary(objectID: objectID, count: Int(sqlite3_column_int64(handle, column.seriesCount)), db)
        }
        let metadata = try MetadataCoding.decode(text(column.metadata))
        let device = try device(db)
        let source = try source(db)
        return SampleRecord(
            uuid: try uuid(), typeIdentifier: typeIdentifier,
            startDate: Date(microsecondsSince1970: sqlite3_column_int64(handle, column.start)),
            endDate: Date(microsecondsSince1970: sqlite3_column_int64(handle, column.end)),
            value: value, metadata: metadata, device: device, source: source, quantitySeries: quantitySeries)
    }

    /// The unit `fetch` reports plain quantity rows of `typeIdentifier` in.
    mutating func canonicalUnit(of typeIdentifier: String) -> String { storedType(typeIdentifier).unit }

    /// Appends the sample in `row` (the current row of a cursor over the decoder's statement,
    /// of `batch.typeIdentifier`) to `batch`: a plain quantity or category row — value in
    /// `objects`, no metadata, no quantity series — as scalars with its source and device by
    /// index into the batch's tables; any other row as the whole record `record` makes, so
    /// the two paths cannot disagree about what a row holds.
    mutating func fetch(_ row: Row, into batch: inout FetchedSampleBatch, _ db: Database) throws {
        let type = storedType(batch.typeIdentifier)
        let plain = !type.valueInSideTable && sqlite3_column_type(handle, column.metadata) == SQLITE_NULL
            && sqlite3_column_type(handle, column.seriesCount) == SQLITE_NULL
        guard plain else {
            batch.rows.append(FetchedSample(uuid: try uuid(), startUS: sqlite3_column_int64(handle, column.start),
                                            endUS: sqlite3_column_int64(handle, column.end),
                                            value: .record(batch.records.count), source: nil, device: nil))
            batch.records.append(try record(row, typeIdentifier: batch.typeIdentifier, db))
            return
        }
        let value: FetchedSample.Value = sqlite3_column_type(handle, column.quantity) != SQLITE_NULL
            ? .quantity(sqlite3_column_double(handle, column.quantity))
            : .category(sqlite3_column_int64(handle, column.category))  // NULL reads as 0, as in `record`
        batch.rows.append(FetchedSample(uuid: try uuid(), startUS: sqlite3_column_int64(handle, column.start),
                                        endUS: sqlite3_column_int64(handle, column.end), value: value,
                                        source: try sourceIndex(in: &batch, db), device: try deviceIndex(in: &batch, db)))
    }

    /// The index in `batch.sources` of the row's source with the row's own version, added on
    /// first use. Consecutive rows mostly share both, so the last answer is checked first.
    private mutating func sourceIndex(in batch: inout FetchedSampleBatch, _ db: Database) throws -> Int32 {
        let id = sqlite3_column_int64(handle, column.sourceID)
        // The last row's source, compared by the version's bytes in place: making a `String` of
        // the version per row (a UTF-8 check and a hash) was a visible part of a large query.
        let system = systemID()
        if let last = lastSourceIndex, last.key.id == id, last.key.system == system, sameText(column.sourceVersion, as: last.key.version) {
            return last.index
        }
        let version = text(column.sourceVersion)
        let key = SourceKey(id: id, version: version, system: system)
        if let last = lastSourceIndex, last.key == key { return last.index }
        let index: Int32
        if let known = sourceIndexes[key] {
            index = known
        } else {
            index = Int32(batch.sources.count)
            batch.sources.append(try source(db))
            sourceIndexes[key] = index
        }
        lastSourceIndex = (key, index)
        return index
    }

    /// The index in `batch.devices` of the row's device (nil for none), added on first use.
    private mutating func deviceIndex(in batch: inout FetchedSampleBatch, _ db: Database) throws -> Int32? {
        guard sqlite3_column_type(handle, column.deviceID) != SQLITE_NULL else { return nil }
        let id = sqlite3_column_int64(handle, column.deviceID)
        if let known = deviceIndexes[id] { return known }
        guard let device = try device(db) else { return nil }
        let index = Int32(batch.devices.count)
        batch.devices.append(device)
        deviceIndexes[id] = index
        return index
    }

    /// Whether text column `index` of the current row is `expected` (NULL matches nil only).
    private func sameText(_ index: Int32, as expected: String?) -> Bool {
        guard var expected else { return sqlite3_column_type(handle, index) == SQLITE_NULL }
        guard sqlite3_column_type(handle, index) != SQLITE_NULL, let bytes = sqlite3_column_text(handle, index) else { return false }
        let count = Int(sqlite3_column_bytes(handle, index))
        return expected.withUTF8 { utf8 in
            guard utf8.count == count else { return false }
            guard count > 0, let expectedBytes = utf8.baseAddress else { return true }
            return memcmp(bytes, expectedBytes, count) == 0
        }
    }

    /// A text column of the current row, nil for NULL.
    private func text(_ index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL, let bytes = sqlite3_column_text(handle, index) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, index))), as: UTF8.self)
    }

    /// The object's UUID: its 16 bytes, as the insert path binds them (`BoundStatement`).
    private func uuid() throws -> UUID {
        // The blob first, then its size (SQLite's documented order).
        guard let bytes = sqlite3_column_blob(handle, column.uuid), sqlite3_column_bytes(handle, column.uuid) == 16 else {
            throw StoreIntegrityError.malformedUUID
        }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: 16)) }
        return UUID(uuid: uuid)
    }

    /// The row's source; the version, product type and system version are the object's own
    /// (the app's version and the host's when it saved).
    private mutating func source(_ db: Database) throws -> SourceRecord {
        var record = try sourceIdentity(db)
        record.version = text(column.sourceVersion)
        if let system = systemID() {
            let stored = try self.system(system, db)
            record.productType = stored.productType
            record.operatingSystemVersion = stored.version
        }
        return record
    }

    /// The row's source's bundle identifier and name (no version, no system).
    private mutating func sourceIdentity(_ db: Database) throws -> SourceRecord {
        let id = sqlite3_column_int64(handle, column.sourceID)
        // Consecutive rows mostly share a source: checking the last one first saves hashing.
        if let known = lastSource, known.id == id { return known.record }
        if let known = sources[id] {
            lastSource = (id, known)
            return known
        }
        let statement = try db.cachedStatement(sql: "SELECT bundle_identifier, name FROM sources WHERE id = ?")
        guard let stored = try Row.fetchOne(statement, arguments: [id]) else { throw StoreIntegrityError.missingSourceRow }
        let decoded = SourceRecord(bundleIdentifier: stored[0], name: stored[1])
        sources[id] = decoded
        lastSource = (id, decoded)
        return decoded
    }

    /// The row's `system_id`, nil for none (objects stored before v31, or recording neither).
    private func systemID() -> Int64? {
        sqlite3_column_type(handle, column.systemID) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column.systemID)
    }

    /// A `source_systems` row: '' reads as no product type; a version the store cannot read as
    /// one is an integrity error (only `SampleRepository.systemID` writes them).
    private mutating func system(_ id: Int64, _ db: Database) throws -> (productType: String?, version: SystemVersion) {
        if let known = systems[id] { return known }
        let statement = try db.cachedStatement(sql: "SELECT product_type, os_version FROM source_systems WHERE id = ?")
        guard let stored = try Row.fetchOne(statement, arguments: [id]) else { throw StoreIntegrityError.malformedSourceSystemRow }
        let product: String = stored[0]
        let text: String = stored[1]
        guard let version = SystemVersion(parsing: text) else { throw StoreIntegrityError.malformedSourceSystemRow }
        let decoded = (productType: product.isEmpty ? nil : product, version: version)
        systems[id] = decoded
        return decoded
    }

    private mutating func device(_ db: Database) throws -> DeviceRecord? {
        guard sqlite3_column_type(handle, column.deviceID) != SQLITE_NULL else { return nil }
        let id = sqlite3_column_int64(handle, column.deviceID)
        if let known = devices[id] { return known }
        let statement = try db.cachedStatement(sql: """
            SELECT name, manufacturer, model, hardware_version, firmware_version, software_version,
                   local_identifier, udi_device_identifier
            FROM devices WHERE id = ?
            """)
        guard let stored = try Row.fetchOne(statement, arguments: [id]) else { throw StoreIntegrityError.missingDeviceRow }
        let decoded = DeviceRecord(
            name: stored[0], manufacturer: stored[1], model: stored[2], hardwareVersion: stored[3],
            firmwareVersion: stored[4], softwareVersion: stored[5], localIdentifier: stored[6], udiDeviceIdentifier: stored[7])
        devices[id] = decoded
        return decoded
    }

    private mutating func storedType(_ identifier: String) -> StoredType {
        if let lastType, lastType.identifier == identifier { return lastType }
        let type = StoredType(identifier)
        lastType = type
        return type
    }

    /// What decoding needs to know about a type.
    private struct StoredType {
        let identifier: String
        /// The canonical unit a quantity type's values are stored in; "" for other types.
        let unit: String
        /// Workouts, routes, series samples, states of mind, assessments, audiograms, documents and clinical
        /// records: the value is in their side tables (`WorkoutRows`, `SeriesRows`, `StateOfMindRows`,
        /// `AssessmentRows`, `AudiogramRows`, `DocumentRows`, `ClinicalRecordRows`), not in `objects`.
        let valueInSideTable: Bool

        init(_ identifier: String) {
            self.identifier = identifier
            unit = (HKObjectType.type(forIdentifier: identifier) as? HKQuantityType)?.canonicalUnit.unitString ?? ""
            valueInSideTable = WorkoutRows.holdsValue(of: identifier) || SeriesRows.holdsValue(of: identifier)
                || StateOfMindRows.holdsValue(of: identifier)
                || AssessmentRows.holdsValue(of: identifier)
                || AudiogramRows.holdsValue(of: identifier)
                || DocumentRows.holdsValue(of: identifier)
                || ClinicalRecordRows.holdsValue(of: identifier)
                || VisionPrescriptionRows.holdsValue(of: identifier)
                || MedicationRows.holdsValue(of: identifier)
        }
    }

    /// Where each of `columns` is in one statement.
    private struct Columns {
        let id, uuid, start, end, quantity, category, metadata, sourceID, sourceVersion, deviceID, seriesCount, systemID: Int32

        init(_ statement: Statement) {
            func index(_ name: String) -> Int32 {
                // The statements are fixed in code: a missing column is a bug any test finds.
                guard let index = statement.index(ofColumn: name) else {
                    preconditionFailure("a sample statement does not select \(name)")
                }
                return Int32(index)
            }
            id = index("id")
            uuid = index("uuid")
            start = index("start_us")
            end = index("end_us")
            quantity = index("quantity")
            category = index("category")
            metadata = index("metadata")
            sourceID = index("source_id")
            sourceVersion = index("source_version")
            deviceID = index("device_id")
            seriesCount = index("series_count")
            systemID = index("system_id")
        }
    }
}
