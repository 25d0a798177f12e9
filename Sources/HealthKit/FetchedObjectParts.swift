
/// The parts of fetched objects that consecutive records of one answer repeat — the type, the
/// unit, the source revision, the device — made once and shared by the objects that have them.
///
/// Why: a 10,000-sample answer is usually one type in one unit from a handful of sources, yet
/// each object used to get its own `HKSourceRevision`, `HKSource`, `HKDevice` and `HKUnit`
/// (four allocations and a unit-cache lookup under a lock per sample), which made building the
/// samples in the app cost twice what healthd spent producing them (issue 17). Every shared
/// part is an immutable value class compared by value, so sharing an instance cannot be told
/// from making an equal one. One `FetchedObjectParts` per answer (not thread-safe).
final class FetchedObjectParts {
    private var lastType: (identifier: String, type: HKObjectType?)?
    private var lastUnit: (text: String, unit: HKUnit)?
    private var lastSource: (record: SourceRecord, revision: HKSourceRevision)?
    private var lastDevice: (record: DeviceRecord, device: HKDevice)?
    /// The parts of a `FetchedSampleBatch`'s tables, by index: rows name their source and device
    /// by index, and rows of two sources alternate, which the one-entry caches above miss.
    private var indexedSources: [(record: SourceRecord, revision: HKSourceRevision)] = []
    private var indexedDevices: [(record: DeviceRecord, device: HKDevice)] = []

    func type(_ identifier: String) -> HKObjectType? {
        if let lastType, lastType.identifier == identifier { return lastType.type }
        let type = HKObjectType.type(forIdentifier: identifier)
        lastType = (identifier, type)
        return type
    }

    func unit(_ text: String) -> HKUnit {
        if let lastUnit, lastUnit.text == text { return lastUnit.unit }
        let unit = HKUnit(from: text)
        lastUnit = (text, unit)
        return unit
    }

    func sourceRevision(_ record: SourceRecord?) -> HKSourceRevision? {
        guard let record else { return nil }
        if let lastSource, lastSource.record == record { return lastSource.revision }
        let revision = HKSourceRevision(record)
        lastSource = (record, revision)
        return revision
    }

    /// Makes `revision` the one handed out for the source record it describes, and returns that
    /// record: an archive's revision (`ArchivedSample`) is the one the archive holds, even when
    /// its system version is one the wire cannot carry (negative parts).
    func share(_ revision: HKSourceRevision) -> SourceRecord {
        let record = revision.record
        lastSource = (record, revision)
        return record
    }

    /// The revision of `table[index]` (nil for no index). The tables of one answer only grow
    /// (`FetchedSampleDecoder`), so an index keeps naming one source; the stored record is
    /// compared all the same (equal strings share storage: cheap), so a table that differs
    /// gets the right revision, only unshared.
    func sourceRevision(at index: Int32?, in table: [SourceRecord]) -> HKSourceRevision? {
        guard let index else { return nil }
        let position = Int(index), record = table[position]
        if position < indexedSources.count, indexedSources[position].record == record { return indexedSources[position].revision }
        guard let revision = sourceRevision(record) else { return nil }
        if position < indexedSources.count {
            indexedSources[position] = (record, revision)
        } else if position == indexedSources.count {
            indexedSources.append((record, revision))
        }
        return revision
    }

    /// The revision of every entry of a batch's source table, by index: `sourceRevision(at:in:)`
    /// once per entry and batch. A batch's rows then take theirs by index, instead of each row
    /// copying its `SourceRecord` out of the table and comparing it with the cached one (every
    /// string retained, compared and released per row: 14 % of the app's CPU in a
    /// 10,000-sample answer, Benchmarks/README.md "Session 14").
    func sourceRevisions(of table: [SourceRecord]) -> [HKSourceRevision?] {
        table.indices.map { sourceRevision(at: Int32(truncatingIfNeeded: $0), in: table) }
    }

    /// The device of every entry of a batch's device table, by index (as `sourceRevisions(of:)`).
    func devices(of table: [DeviceRecord]) -> [HKDevice?] {
        table.indices.map { device(at: Int32(truncatingIfNeeded: $0), in: table) }
    }

    /// The device of `table[index]` (nil for no index), by index as `sourceRevision(at:in:)`.
    func device(at index: Int32?, in table: [DeviceRecord]) -> HKDevice? {
        guard let index else { return nil }
        let position = Int(index), record = table[position]
        if position < indexedDevices.count, indexedDevices[position].record == record { return indexedDevices[position].device }
        guard let device = device(record) else { return nil }
        if position < indexedDevices.count {
            indexedDevices[position] = (record, device)
        } else if position == indexedDevices.count {
            indexedDevices.append((record, device))
        }
        return device
    }

    func device(_ record: DeviceRecord?) -> HKDevice? {
        guard let record else { return nil }
        if let lastDevice, lastDevice.record == record { return lastDevice.device }
        let device = HKDevice(record: record)
        lastDevice = (record, device)
        return device
    }
}
