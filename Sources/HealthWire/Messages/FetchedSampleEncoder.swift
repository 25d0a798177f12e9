import COpenHealthProto
import Foundation
public import HealthModel

/// Encodes a sample query's `FetchedSampleBatch`es as `SampleBatch` messages: byte for byte
/// what protobuf-c packs for `SampleList(batch.sampleRecords())` (`FetchedSampleEncoderTests`),
/// so the SDK and every other reader see no difference.
///
/// Plain rows — a quantity or category value, a source and a device, nothing else — are written
/// straight from their scalars: field by field in protobuf-c's order (field number), with its
/// proto3 rules (a zero scalar or empty string is left out; a oneof member and a set message
/// are written whatever they hold). The parts rows share are encoded once per query and then
/// copied as bytes: the type, the unit, each source revision and each device. Rows that are not
/// plain (metadata, series, side-table values) go through protobuf-c one sample at a time, which
/// gives the same bytes: a repeated message field is each element's tag, length and bytes in
/// turn. One encoder serves one query's stream, because its part tables follow the batch's,
/// which only grow while a query runs.
public struct FetchedSampleEncoder {
    private var typeIdentifier: String?
    private var unit: String?
    /// Sample field 2 (the type), whole: tag, length, bytes; empty for an empty identifier.
    private var typeField: [UInt8] = []
    /// Quantity field 2 (the unit), whole; empty for an empty unit.
    private var unitField: [UInt8] = []
    /// Sample field 9 for each of the batch's sources, by index.
    private var sourceFields: [[UInt8]] = []
    /// Sample field 8 for each of the batch's devices, by index.
    private var deviceFields: [[UInt8]] = []
    /// Whole records encoded to be measured (`encodedSize(ofLastRowOf:)`), taken by the
    /// `wireBytes` that sends them so none is encoded twice.
    private let measured = EncodedSamples()

    public init() {}

    /// The `SampleBatch` message holding `batch`'s rows, in order.
    ///
    /// Written in one pass into a buffer sized exactly beforehand (`plainLength` per plain
    /// sample); every store is checked against the room left (`ByteWriter`). Appending field by
    /// field to growing arrays cost a uniqueness and a capacity check per field, and a copy of
    /// every sample from a scratch array into the batch: a fifth of healthd's CPU for a
    /// 10,000-sample answer (Benchmarks/README.md, "Session 11: queries and batches").
    public mutating func wireBytes(_ batch: FetchedSampleBatch) -> [UInt8] {
        learnParts(of: batch)
        // Rows that are not plain go through protobuf-c first; their bytes are copied in below.
        var wholeRecords: [[UInt8]] = []
        var capacity = 0
        for row in batch.rows {
            switch row.value {
            case let .record(index):
                let bytes = measured.take(batch.records[index])
                capacity += bytes.count
                wholeRecords.append(bytes)
            case .quantity, .category:
                let length = plainLength(row)
                capacity += 1 + Self.varintLength(UInt64(length)) + length
            }
        }
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var out = ByteWriter(buffer)
            var nextRecord = 0
            for row in batch.rows {
                switch row.value {
                case .record:
                    out.write(wholeRecords[nextRecord])
                    nextRecord += 1
                case .quantity, .category:
                    let length = plainLength(row)
                    out.write(Tag.batchSamples)
                    out.writeVarint(UInt64(length))
                    let started = out.count
                    writePlain(row, to: &out)
                    // The length prefix above must be the bytes written: a mismatch would be
                    // a malformed message, caught here rather than by a reader.
                    precondition(out.count - started == length, "a plain sample's computed length is not what was written")
                }
            }
            precondition(out.count == capacity, "a batch's computed size is not what was written")
            initialized = out.count
        }
    }

    /// The bytes the batch's last row takes in `wireBytes(batch)`: how the store cuts batches
    /// by size (`ResultBatching`). A plain row's is computed; a whole record is encoded here and
    /// kept for `wireBytes`.
    public mutating func encodedSize(ofLastRowOf batch: FetchedSampleBatch) -> Int {
        guard let row = batch.rows.last else { return 0 }
        learnParts(of: batch)
        switch row.value {
        case let .record(index):
            return measured.size(of: batch.records[index])
        case .quantity, .category:
            let length = plainLength(row)
            return 1 + Self.varintLength(UInt64(length)) + length
        }
    }

    /// The number of bytes `writePlain` writes for `row`.
    private func plainLength(_ row: FetchedSample) -> Int {
        var length = 2 + 16 + typeField.count  // the UUID's tag, length and bytes, then the type
        if row.startUS != 0 { length += 1 + Self.varintLength(UInt64(bitPattern: row.startUS)) }
        if row.endUS != 0 { length += 1 + Self.varintLength(UInt64(bitPattern: row.endUS)) }
        switch row.value {
        case let .quantity(value):
            let inner = (value != 0 ? 9 : 0) + unitField.count
            length += 1 + Self.varintLength(UInt64(inner)) + inner
        case let .category(value):
            length += 1 + Self.varintLength(UInt64(bitPattern: value))
        case .record:
            break  // not plain
        }
        if let device = row.device { length += deviceFields[Int(device)].count }
        if let source = row.source { length += sourceFields[Int(source)].count }
        return length
    }

    /// The plain sample `row`, field by field in field-number order.
    private func writePlain(_ row: FetchedSample, to out: inout ByteWriter) {
        out.write(Tag.uuid)
        out.write(16)
        withUnsafeBytes(of: row.uuid.uuid) { out.write($0) }
        out.write(typeField)
        if row.startUS != 0 {
            out.write(Tag.start)
            out.writeVarint(UInt64(bitPattern: row.startUS))
        }
        if row.endUS != 0 {
            out.write(Tag.end)
            out.writeVarint(UInt64(bitPattern: row.endUS))
        }
        switch row.value {
        case let .quantity(value):
            // A oneof member: written even when its message is empty.
            // protobuf-c leaves out a double equal to zero, -0.0 too (which so arrives as 0.0).
            let written = value != 0
            out.write(Tag.quantity)
            out.writeVarint(UInt64((written ? 9 : 0) + unitField.count))
            if written {
                out.write(Tag.quantityValue)
                withUnsafeBytes(of: value.bitPattern.littleEndian) { out.write($0) }
            }
            out.write(unitField)
        case let .category(value):
            out.write(Tag.category)
            out.writeVarint(UInt64(bitPattern: value))
        case .record:
            break  // not plain; `wireBytes` sends it through protobuf-c
        }
        if let device = row.device { out.write(deviceFields[Int(device)]) }
        if let source = row.source { out.write(sourceFields[Int(source)]) }
    }

    /// How many bytes `value` takes as a varint (1 to 10).
    static func varintLength(_ value: UInt64) -> Int {
        // Seven bits a byte; zero still takes one.
        (64 - value.leadingZeroBitCount + 6) / 7 + (value == 0 ? 1 : 0)
    }

    /// Encodes the batch's type, unit, and the sources and devices this encoder has not met yet.
    /// Strings as `WireArena.string` writes them (`WireText.packable`), so a NUL is spelled as
    /// protobuf-c's path spells it.
    private mutating func learnParts(of batch: FetchedSampleBatch) {
        if typeIdentifier != batch.typeIdentifier {
            typeIdentifier = batch.typeIdentifier
            typeField = Self.field(Tag.type, WireText.packable(batch.typeIdentifier))
        }
        if unit != batch.unit {
            unit = batch.unit
            unitField = Self.field(Tag.quantityUnit, WireText.packable(batch.unit))
        }
        for source in batch.sources.dropFirst(sourceFields.count) {
            let arena = WireArena()
            // As SampleWireBuilder fills it.
            let revision = SourceRevisionWire.build(source, in: arena)
            sourceFields.append(Self.messageField(Tag.sourceRevision, ProtobufCodec.encode(revision.pointee)))
        }
        for device in batch.devices.dropFirst(deviceFields.count) {
            let arena = WireArena()
            deviceFields.append(Self.messageField(Tag.device, ProtobufCodec.encode(DeviceWire.build(device, in: arena).pointee)))
        }
    }

    /// A length-delimited field left out when empty (a proto3 string).
    private static func field(_ tag: UInt8, _ bytes: [UInt8]) -> [UInt8] {
        bytes.isEmpty ? [] : messageField(tag, bytes)
    }

    /// A length-delimited field written even when empty (a set message).
    private static func messageField(_ tag: UInt8, _ bytes: [UInt8]) -> [UInt8] {
        var field = [tag]
        ProtobufCodec.appendVarint(UInt64(bytes.count), to: &field)
        return field + bytes
    }

    /// Field keys (number << 3 | wire type) of the fields written here (proto/openhealth/v1/types.proto,
    /// health_store.proto). All below 16, so each is one byte.
    private enum Tag {
        static let batchSamples: UInt8 = 1 << 3 | 2   // SampleBatch.samples
        static let uuid: UInt8 = 1 << 3 | 2           // Sample.uuid
        static let type: UInt8 = 2 << 3 | 2           // Sample.type
        static let start: UInt8 = 3 << 3 | 0          // Sample.start_us
        static let end: UInt8 = 4 << 3 | 0            // Sample.end_us
        static let quantity: UInt8 = 5 << 3 | 2       // Sample.quantity
        static let category: UInt8 = 6 << 3 | 0       // Sample.category_value
        static let device: UInt8 = 8 << 3 | 2         // Sample.device
        static let sourceRevision: UInt8 = 9 << 3 | 2 // Sample.source_revision
        static let quantityValue: UInt8 = 1 << 3 | 1  // Quantity.value (64-bit)
        static let quantityUnit: UInt8 = 2 << 3 | 2   // Quantity.unit
    }
}

/// Stores bytes into a buffer of a size computed beforehand, refusing to pass its end: the
/// bounds check that `Array.append` made on every call, made once per write here and fatal
/// instead of growing (a size computed wrong is a bug, never input).
struct ByteWriter {
    private let base: UnsafeMutablePointer<UInt8>?
    private let capacity: Int
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress
        capacity = buffer.count
    }

    mutating func write(_ byte: UInt8) {
        precondition(count < capacity, "ByteWriter: past the computed size")
        base?[count] = byte
        count += 1
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(bytes.count <= capacity - count, "ByteWriter: past the computed size")
        // A buffer with room has a base address.
        if let base { UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count) }
        count += bytes.count
    }

    mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// `value` as a protobuf varint: seven bits a byte, low first, high bit set on all but the last.
    mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            write(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        write(UInt8(rest))
    }
}
