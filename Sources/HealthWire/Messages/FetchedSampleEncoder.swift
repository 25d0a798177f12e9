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
    /// One sample's bytes, reused: its length has to be written before it.
    private var sample: [UInt8] = []

    public init() {}

    /// The `SampleBatch` message holding `batch`'s rows, in order.
    public mutating func wireBytes(_ batch: FetchedSampleBatch) -> [UInt8] {
        learnParts(of: batch)
        var out: [UInt8] = []
        // A plain sample with a source is about 90 bytes; one reservation per batch.
        out.reserveCapacity(batch.rows.count * 96)
        for row in batch.rows {
            switch row.value {
            case let .record(index):
                out += SampleList([batch.records[index]]).wireBytes()
            case .quantity, .category:
                encodePlain(row)
                out.append(Tag.batchSamples)
                ProtobufCodec.appendVarint(UInt64(sample.count), to: &out)
                out += sample
            }
        }
        return out
    }

    /// The plain sample `row` into `sample`, field by field in field-number order.
    private mutating func encodePlain(_ row: FetchedSample) {
        sample.removeAll(keepingCapacity: true)
        sample.append(Tag.uuid)
        sample.append(16)
        withUnsafeBytes(of: row.uuid.uuid) { sample.append(contentsOf: $0) }
        sample += typeField
        if row.startUS != 0 {
            sample.append(Tag.start)
            ProtobufCodec.appendVarint(UInt64(bitPattern: row.startUS), to: &sample)
        }
        if row.endUS != 0 {
            sample.append(Tag.end)
            ProtobufCodec.appendVarint(UInt64(bitPattern: row.endUS), to: &sample)
        }
        switch row.value {
        case let .quantity(value):
            // A oneof member: written even when its message is empty.
            // protobuf-c leaves out a double equal to zero, -0.0 too (which so arrives as 0.0).
            let written = value != 0
            sample.append(Tag.quantity)
            ProtobufCodec.appendVarint(UInt64((written ? 9 : 0) + unitField.count), to: &sample)
            if written {
                sample.append(Tag.quantityValue)
                withUnsafeBytes(of: value.bitPattern.littleEndian) { sample.append(contentsOf: $0) }
            }
            sample += unitField
        case let .category(value):
            sample.append(Tag.category)
            ProtobufCodec.appendVarint(UInt64(bitPattern: value), to: &sample)
        case .record:
            break  // not plain; `wireBytes` sends it through protobuf-c
        }
        if let device = row.device { sample += deviceFields[Int(device)] }
        if let source = row.source { sample += sourceFields[Int(source)] }
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
