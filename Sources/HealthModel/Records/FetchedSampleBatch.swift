public import Foundation

/// One batch of a sample query's answer as the store reads it, before it is encoded for the
/// wire: the rows that are plain quantity or category samples as a few scalars each, and the
/// rest as whole `SampleRecord`s.
///
/// Why not `[SampleRecord]` throughout: a query's rows are nearly all plain samples of one type
/// from one or two sources, and materialising a 260-byte record per row — copied into the
/// batch, read again by the wire builder, turned into protobuf-c structs and packed — was the
/// largest part of healthd's time for a 10,000-sample query (Benchmarks/README.md, "Session 7"
/// and "Session 8"). A `FetchedSample` is under 64 bytes and refers to its source and device by index
/// into tables shared by the whole query, so the encoder writes each shared part's bytes once.
public struct FetchedSampleBatch: Sendable {
    /// Every row's type (a query reads one type).
    public var typeIdentifier: String
    /// The canonical unit of the plain quantity rows (their stored unit); "" for other types.
    public var unit: String
    /// Sources met so far in this query, each with the object's own version: `FetchedSample.source`
    /// indexes it. Only ever appended to while a query runs, so an index stays valid across batches.
    public var sources: [SourceRecord]
    /// Devices met so far in this query (`FetchedSample.device`); appended to only, as `sources`.
    public var devices: [DeviceRecord]
    /// The rows, in the query's order.
    public var rows: [FetchedSample]
    /// The whole records of rows that are not plain (`FetchedSample.Value.record` indexes it).
    public var records: [SampleRecord]

    public init(typeIdentifier: String, unit: String, sources: [SourceRecord] = [], devices: [DeviceRecord] = [],
                rows: [FetchedSample] = [], records: [SampleRecord] = []) {
        self.typeIdentifier = typeIdentifier
        self.unit = unit
        self.sources = sources
        self.devices = devices
        self.rows = rows
        self.records = records
    }

    public var count: Int { rows.count }

    /// Takes the last row out, with its whole record if it has one: a row that will not fit the
    /// batch being sent goes to the next one (`append(_:record:)`). The source and device tables
    /// stay, as they do across batches.
    public mutating func popLast() -> (row: FetchedSample, record: SampleRecord?)? {
        guard let row = rows.popLast() else { return nil }
        guard case let .record(index) = row.value else { return (row, nil) }
        // Records are appended with their rows, so the last row's is the last record; were it
        // not, the record is copied and left (no row points at it, so it is never sent).
        return (row, index == records.count - 1 ? records.popLast() : records[index])
    }

    /// Appends a row taken out by `popLast`, its record (if any) at the end of `records`.
    public mutating func append(_ row: FetchedSample, record: SampleRecord?) {
        var row = row
        if let record {
            row.value = .record(records.count)
            records.append(record)
        }
        rows.append(row)
    }

    /// The batch as whole records, in order (tests and callers that want records).
    public func sampleRecords() -> [SampleRecord] {
        rows.indices.map(record(at:))
    }

    /// Row `index` as a whole record: its shared parts are the batch's, so records of one
    /// batch share the storage of their type, unit, source and device strings.
    public func record(at index: Int) -> SampleRecord {
        let row = rows[index]
        let value: SampleRecord.Value
        switch row.value {
        case let .record(index): return records[index]
        case let .quantity(quantity): value = .quantity(quantity, unit: unit)
        case let .category(category): value = .category(Int(truncatingIfNeeded: category))
        }
        return SampleRecord(uuid: row.uuid, typeIdentifier: typeIdentifier,
                            startDate: Date(microsecondsSince1970: row.startUS), endDate: Date(microsecondsSince1970: row.endUS),
                            value: value, device: row.device.map { devices[Int($0)] },
                            source: row.source.map { sources[Int($0)] })
    }
}

/// One fetched row of a `FetchedSampleBatch`: a plain sample's scalars, or where its whole
/// record is. A plain sample has no metadata and no quantity series.
public struct FetchedSample: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        /// A quantity in the batch's `unit`.
        case quantity(Double)
        case category(Int64)
        /// Not plain: the batch's `records[index]` is the whole sample.
        case record(Int)
    }

    public var uuid: UUID
    public var startUS: Int64
    public var endUS: Int64
    public var value: Value
    /// Index into the batch's `sources`; nil for none.
    public var source: Int32?
    /// Index into the batch's `devices`; nil for none.
    public var device: Int32?

    public init(uuid: UUID, startUS: Int64, endUS: Int64, value: Value, source: Int32?, device: Int32?) {
        self.uuid = uuid
        self.startUS = startUS
        self.endUS = endUS
        self.value = value
        self.source = source
        self.device = device
    }
}
