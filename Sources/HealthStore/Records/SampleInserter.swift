import Foundation
import GRDB
import HealthModel

/// The one insert path into `objects`: every save, import, route, correlation sample and
/// pending-journal merge goes through `SampleRepository.write`, which makes one of these.
///
/// What makes it fast (issue 17: a batched save spent most of healthd's time around SQLite, not
/// in it):
/// - the statements are prepared once per connection and bound value by value
///   (`BoundStatement`), with no argument arrays built per row;
/// - the save's source and change number are looked up once, and each type and device once per
///   write (a 1,000-sample batch from one watch looks its device up once, not 1,000 times).
///
/// - the columns every row of a write shares (source, its version, the change number) are bound
///   once: SQLite keeps a statement's bindings across runs;
/// - every row is stepped in SQLite directly (`BoundStatement.stepDirectly`), without GRDB's
///   per-statement work: no GRDB observer needs to hear of rows (the commit watcher learns what
///   changed from SQLite's pre-update hook, `ChangeCapture`). Until issue 17's session 20 the
///   first row of each write ran through GRDB so that the watcher heard `objects` changed.
///
/// It also stores each sync identifier's `SyncKey` (v36), the column the per-source sync index is
/// built on, so no row is ever written without the key its lookup will search by (an import's
/// dated identities under a key that begins with their start: `SyncLookup`).
///
/// One inserter serves one `write`, inside one savepoint of the group commit: the ids it caches
/// may name rows that savepoint created, which a rollback would remove, so they must not outlive
/// it. No other inserter may be made on the same connection while one is in use: both would
/// share the connection's one cached statement and its bindings.
struct SampleInserter {
    /// Where each row's product type and system version (`objects.system_id`) come from.
    enum SystemStamp {
        /// The write's source: an app's save (the broker stamps its source with the host's).
        case source
        /// Each record's own device (`SourceRecord.savedOn(_:)`): an import, whose records were
        /// saved on the devices the export names. Never for an app's save: an app chooses its
        /// records' devices, and must not choose what its revision reports.
        case eachRecordsDevice
    }

    let sourceID: Int64
    /// The change number every object of this write carries.
    let change: Int64
    private let insert: BoundStatement
    /// How this write's upserts find what the source holds (the one rule: `SyncLookup`).
    private(set) var syncLookup: SyncLookup
    private var typeIDs: [String: Int64] = [:]
    /// The last type looked up: a batch is usually of one type, and comparing its identifier is
    /// cheaper than hashing it for `typeIDs` on every row.
    private var lastType: (identifier: String, id: Int64)?
    private var deviceIDs: [DeviceRecord: Int64] = [:]
    /// The last device looked up: an import batch's records usually share one, and comparing
    /// its eight fields is cheaper than hashing them all for `deviceIDs` on every row.
    private var lastDevice: (device: DeviceRecord, id: Int64)?
    private let source: SourceRecord
    private let stamp: SystemStamp
    /// `source_systems` ids by (product type, system version); nil for "nothing recorded".
    private var systemIDs: [SystemKey: Int64?] = [:]
    private var lastSystem: (key: SystemKey, id: Int64?)?
    /// The device the last `.eachRecordsDevice` stamp was read from, and its id: an import
    /// batch's records name one device, and comparing it is cheaper than reading its product
    /// type and system version out of its text again for every row (≈ 2.5 % of healthd's CPU
    /// in an import, issue 16).
    private var lastStampedDevice: (device: DeviceRecord?, id: Int64?)?
    private struct SystemKey: Hashable {
        let productType: String?
        let version: SystemVersion
    }
    /// The row's metadata as JSON text (`MetadataCoding`), reused from row to row.
    private var metadataText: [UInt8] = []
    /// The app this write's objects are charged to (`StorageUse`); nil for the user's own entries
    /// and imports, which no app is charged for.
    let chargedApp: String?
    /// What this write charged so far: each object's `StoredSize` (kept in its row, given back
    /// when it is deleted) and its device's (kept: device rows are shared and stay).
    private(set) var charged: Int64 = 0

    /// The objects insert, found without GRDB's look-up by SQL text (`StatementSlot`).
    private static let insertSlot = StatementSlot("""
        INSERT INTO objects (uuid, type_id, source_id, source_version, device_id, start_us, end_us,
                             quantity, category, metadata, change_seq, sync_identifier, sync_version, series_count,
                             system_id, sync_key, charged)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)

    init(_ db: Database, source: SourceRecord, systems stamp: SystemStamp = .source) throws {
        sourceID = try SampleRepository.sourceID(db, source)
        syncLookup = try SyncLookup(sourceID: sourceID, source: source, db)
        change = try ObjectDeleter.nextChange(db)
        self.source = source
        self.stamp = stamp
        chargedApp = StorageUse.chargedApp(source.bundleIdentifier)
        insert = try BoundStatement(db, Self.insertSlot)
        // The same for every row of this write; stay bound until the statement is next made
        // into a `BoundStatement` (which clears its bindings).
        try insert.bind(sourceID, at: 3)
        try insert.bind(source.version, at: 4)
        try insert.bind(change, at: 11)
        if chargedApp == nil { try insert.bindNull(at: 17) }
    }

    /// The object this write's source stored under `identifier`, if any; `dated`: the identity is
    /// an import's dated one (`SyncLookup`).
    mutating func storedObject(syncIdentifier identifier: String, of record: SampleRecord, dated: Bool,
                               _ db: Database) throws -> SyncedObject? {
        try syncLookup.find(identifier, of: record, dated: dated, db)
    }

    /// Inserts one object of `record`'s type, dates, device and metadata with `value`'s
    /// column, and returns its row id. A correlation's or workout's own rows elsewhere are the
    /// caller's. `dated`: `sync` is an import's dated identity (`SyncLookup` picks its key).
    mutating func insert(_ record: SampleRecord, uuid: UUID, quantity: Double?, category: Int?,
                         sync: SyncIdentity?, dated: Bool = false, _ db: Database) throws -> Int64 {
        let typeID = try cachedTypeID(record.typeIdentifier, db)
        var deviceID: Int64?
        // Whether the row before this one in the write named the same device: then its row, if
        // one was made, is charged already (`StoredSize.device`).
        var sameDevice = false
        if let device = record.device { (deviceID, sameDevice) = try cachedDeviceID(device, db) }
        try insert.bind(uuid, at: 1)
        try insert.bind(typeID, at: 2)
        try insert.bind(deviceID, at: 5)
        try insert.bind(record.startDate.microsecondsSince1970, at: 6)
        try insert.bind(record.endDate.microsecondsSince1970, at: 7)
        try insert.bind(quantity, at: 8)
        try insert.bind(category.map(Int64.init), at: 9)
        // Encoded into one buffer kept for the whole write and bound as bytes: no `String` per row.
        try insert.bind(utf8: MetadataCoding.encode(record.metadata, into: &metadataText) ? metadataText : nil, at: 10)
        try insert.bind(sync?.identifier, at: 12)
        try insert.bind(sync?.version, at: 13)
        try insert.bind(try sync.map { try syncLookup.keyForStoring($0.identifier, for: record, dated: dated, db) }, at: 16)
        // A quantity series' count marks its row for the decoder and statistics (v23); its
        // quantities are the caller's, like a workout's side rows.
        try insert.bind(record.quantitySeries.map { Int64($0.count) }, at: 14)
        try insert.bind(try cachedSystemID(of: record, db), at: 15)
        if chargedApp != nil {
            let charge = StoredSize.charge(of: record, sync: sync, sourceVersion: source.version)
            try insert.bind(charge, at: 17)
            charged += charge + (sameDevice ? StoredSize.deviceReference : StoredSize.device(record.device))
        }
        try insert.stepDirectly(db)
        return insert.lastInsertedRowID
    }

    private mutating func cachedTypeID(_ identifier: String, _ db: Database) throws -> Int64 {
        if let lastType, lastType.identifier == identifier { return lastType.id }
        let id = try typeIDs[identifier] ?? SampleRepository.typeID(db, identifier)
        typeIDs[identifier] = id
        lastType = (identifier, id)
        return id
    }

    /// The row's `source_systems` id as `stamp` says (nil: nothing recorded). The write's
    /// source is the same for every row: its id is found once and stays in `lastSystem`.
    private mutating func cachedSystemID(of record: SampleRecord, _ db: Database) throws -> Int64? {
        let system: SourceRecord
        switch stamp {
        case .source:
            system = source
        case .eachRecordsDevice:
            if let lastStampedDevice, lastStampedDevice.device == record.device { return lastStampedDevice.id }
            system = source.savedOn(record.device)
        }
        let key = SystemKey(productType: system.productType, version: system.operatingSystemVersion)
        if let lastSystem, lastSystem.key == key {
            if stamp == .eachRecordsDevice { lastStampedDevice = (record.device, lastSystem.id) }
            return lastSystem.id
        }
        let id: Int64?
        if let known = systemIDs[key] {
            id = known
        } else {
            id = system.recordsSystem ? try SampleRepository.systemID(db, system) : nil
            systemIDs[key] = id
        }
        lastSystem = (key, id)
        if stamp == .eachRecordsDevice { lastStampedDevice = (record.device, id) }
        return id
    }

    /// The device's row id, and whether it is the previous row's device.
    private mutating func cachedDeviceID(_ device: DeviceRecord, _ db: Database) throws -> (id: Int64, same: Bool) {
        if let lastDevice, lastDevice.device == device { return (lastDevice.id, true) }
        let id = try deviceIDs[device] ?? SampleRepository.deviceID(db, device)
        deviceIDs[device] = id
        lastDevice = (device, id)
        return (id, false)
    }
}
