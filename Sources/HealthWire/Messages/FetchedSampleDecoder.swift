import COpenHealthProto
import Foundation
public import HealthModel

/// Reads the `SampleBatch` messages of one query's answer (the SDK's side of
/// `FetchedSampleEncoder`) into `FetchedSampleBatch`es, giving the records `SampleList(wire:)`
/// would give (`FetchedSampleDecoderTests`) without protobuf-c's unpacking and a fresh string
/// per field per sample.
///
/// A sample in exactly the shape healthd writes for a plain row — uuid, type, dates, a
/// quantity or category value, device, source revision, each at most once, in field order,
/// with the answer's one type and unit — is read here as scalars; its type and unit are
/// checked against `WireText`'s rule once and then compared byte for byte, and each distinct
/// source revision and device is unpacked by protobuf-c once per answer and shared. Any other
/// sample (metadata, series, side values, an unknown or repeated field, a second type) is
/// handed whole to protobuf-c, one sample at a time; anything unexpected around the samples
/// hands the whole message to it. So every byte sequence decodes to what the protobuf-c path
/// gives, or fails where it fails. One decoder per answer: its tables grow across batches.
public struct FetchedSampleDecoder {
    private var typeIdentifier: String?
    private var typeBytes: [UInt8] = []
    private var unit: String?
    private var unitBytes: [UInt8] = []
    private var sources: [SourceRecord] = []
    private var sourceBytes: [[UInt8]] = []
    private var devices: [DeviceRecord] = []
    private var deviceBytes: [[UInt8]] = []
    /// Distinct sources (or devices) shared per answer; past this, samples with new ones are
    /// read whole, so a hostile answer cannot make the linear search below quadratic.
    private static let maxSharedParts = 32

    public init() {}

    /// One `SampleBatch` message of the answer.
    public mutating func decode(_ bytes: [UInt8]) throws -> FetchedSampleBatch {
        var rows: [FetchedSample] = []
        var records: [SampleRecord] = []
        let complete = try bytes.withUnsafeBufferPointer { buffer in
            var reader = WireReader(buffer, buffer.indices)
            while !reader.atEnd {
                // Anything but a sample at the top level: protobuf-c reads the whole message.
                guard reader.varint() == 0x0A, let sample = reader.lengthDelimited() else { return false }
                guard rows.count < WireLimits.maxSamplesPerSave else {
                    throw WireDecodeError.invalidField("more than \(WireLimits.maxSamplesPerSave) samples in one message")
                }
                if let plain = try plainSample(buffer, sample) {
                    rows.append(plain)
                } else {
                    var whole: [UInt8] = [0x0A]
                    ProtobufCodec.appendVarint(UInt64(sample.count), to: &whole)
                    whole += buffer[sample]
                    let decoded = try SampleList(wire: whole).samples
                    guard decoded.count == 1, let record = decoded.first else { throw WireDecodeError.malformed(message: "openhealth.v1.Sample") }
                    rows.append(FetchedSample(uuid: record.uuid, startUS: record.startDate.microsecondsSince1970,
                                              endUS: record.endDate.microsecondsSince1970, value: .record(records.count),
                                              source: nil, device: nil))
                    records.append(record)
                }
            }
            return true
        }
        guard complete else {
            let whole = try SampleList(wire: bytes).samples
            return FetchedSampleBatch(typeIdentifier: typeIdentifier ?? "", unit: unit ?? "", rows: whole.indices.map { index in
                FetchedSample(uuid: whole[index].uuid, startUS: whole[index].startDate.microsecondsSince1970,
                              endUS: whole[index].endDate.microsecondsSince1970, value: .record(index), source: nil, device: nil)
            }, records: whole)
        }
        return FetchedSampleBatch(typeIdentifier: typeIdentifier ?? "", unit: unit ?? "", sources: sources, devices: devices,
                                  rows: rows, records: records)
    }

    /// The sample in `range` if it has the plain shape (see the type's comment); nil to read it whole.
    private mutating func plainSample(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws -> FetchedSample? {
        var reader = WireReader(buffer, range)
        var lastField: UInt64 = 0
        var uuid: UUID?
        var type: Range<Int> = range.lowerBound..<range.lowerBound
        var start: Int64 = 0, end: Int64 = 0
        var value: FetchedSample.Value?
        var unit: Range<Int>?
        var device: Range<Int>?
        var source: Range<Int>?
        while !reader.atEnd {
            guard let key = reader.varint() else { return nil }
            let field = key >> 3
            guard field > lastField, value == nil || field > 6 else { return nil }  // in order, once each, one value
            lastField = field
            switch key {
            case 1 << 3 | 2:
                guard let bytes = reader.lengthDelimited(), bytes.count == 16, let base = buffer.baseAddress else { return nil }
                uuid = UUID(uuid: UnsafeRawPointer(base + bytes.lowerBound).loadUnaligned(as: uuid_t.self))
            case 2 << 3 | 2:
                guard let bytes = reader.lengthDelimited() else { return nil }
                type = bytes
            case 3 << 3 | 0:
                guard let bits = reader.varint() else { return nil }
                start = Int64(bitPattern: bits)
            case 4 << 3 | 0:
                guard let bits = reader.varint() else { return nil }
                end = Int64(bitPattern: bits)
            case 5 << 3 | 2:
                guard let bytes = reader.lengthDelimited(), let quantity = Self.quantity(buffer, bytes) else { return nil }
                value = .quantity(quantity.value)
                unit = quantity.unit
            case 6 << 3 | 0:
                guard let bits = reader.varint() else { return nil }
                value = .category(Int64(bitPattern: bits))
            case 8 << 3 | 2:
                guard let bytes = reader.lengthDelimited() else { return nil }
                device = bytes
            case 9 << 3 | 2:
                guard let bytes = reader.lengthDelimited() else { return nil }
                source = bytes
            default:
                return nil
            }
        }
        guard let uuid, let value, try Self.sharedText(buffer[type], &typeIdentifier, &typeBytes) else { return nil }
        if case .quantity = value {
            // No unit field is the empty unit, which must be the answer's unit too.
            let unitText = unit.map { buffer[$0] } ?? buffer[range.lowerBound..<range.lowerBound]
            guard try Self.sharedText(unitText, &self.unit, &unitBytes) else { return nil }
        }
        var deviceIndex: Int32?
        if let device {
            guard let index = try Self.shared(buffer[device], &deviceBytes, &devices, Self.device) else { return nil }
            deviceIndex = index
        }
        var sourceIndex: Int32?
        if let source {
            guard let index = try Self.shared(buffer[source], &sourceBytes, &sources, Self.source) else { return nil }
            sourceIndex = index
        }
        return FetchedSample(uuid: uuid, startUS: start, endUS: end, value: value, source: sourceIndex, device: deviceIndex)
    }

    /// A Quantity message holding at most its value then its unit.
    private static func quantity(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (value: Double, unit: Range<Int>?)? {
        var reader = WireReader(buffer, range)
        var value = 0.0
        var unit: Range<Int>?
        if reader.peek() == 1 << 3 | 1 {
            _ = reader.varint()
            guard let bits = reader.fixed64() else { return nil }
            value = Double(bitPattern: bits)
        }
        if !reader.atEnd {
            guard reader.varint() == 2 << 3 | 2, let bytes = reader.lengthDelimited() else { return nil }
            unit = bytes
        }
        return reader.atEnd ? (value, unit) : nil
    }

    /// Whether `bytes` are the answer's one text of this kind (type or unit), learning it from
    /// the first plain sample; false for a second, different one (that sample is read whole).
    private static func sharedText(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ text: inout String?, _ known: inout [UInt8]) throws -> Bool {
        if text != nil { return sameBytes(bytes, known) }
        if let problem = WireText.problem(in: bytes) { throw WireDecodeError.invalidField("a sample's text \(problem)") }
        known = Array(bytes)
        text = String(decoding: known, as: UTF8.self)
        return true
    }

    /// The index of the part whose message bytes are `bytes`, unpacked by protobuf-c the first
    /// time; nil once `maxSharedParts` distinct ones were met (the sample is read whole).
    private static func shared<Part>(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ known: inout [[UInt8]], _ parts: inout [Part],
                              _ unpack: ([UInt8]) throws -> Part) throws -> Int32? {
        // Most recent first: an answer's rows mostly repeat the last source and device.
        if let index = known.lastIndex(where: { sameBytes(bytes, $0) }) { return Int32(index) }
        guard known.count < maxSharedParts else { return nil }
        let copy = Array(bytes)
        parts.append(try unpack(copy))
        known.append(copy)
        return Int32(known.count - 1)
    }

    /// Whether `bytes` are exactly `known`: lengths, then one `memcmp`. Every plain sample
    /// compares its type, unit and source (and device) this way; `elementsEqual`, a byte-by-byte
    /// loop through two generic iterators, was a visible part of the app's time per sample.
    private static func sameBytes(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ known: [UInt8]) -> Bool {
        guard bytes.count == known.count else { return false }
        guard !known.isEmpty, let base = bytes.base.baseAddress else { return true }
        return known.withUnsafeBufferPointer { other in
            guard let otherBase = other.baseAddress else { return false }
            return memcmp(base + bytes.startIndex, otherBase, known.count) == 0
        }
    }

    private static func source(_ bytes: [UInt8]) throws -> SourceRecord {
        try ProtobufCodec.withDecoded(Openhealth__V1__SourceRevision.self, from: bytes) { try SourceRevisionWire.read($0) }
    }

    private static func device(_ bytes: [UInt8]) throws -> DeviceRecord {
        try ProtobufCodec.withDecoded(Openhealth__V1__Device.self, from: bytes) { DeviceWire.read($0) }
    }
}

/// Tags, varints and lengths within one range of a buffer; every read is bounded by the range
/// and answers nil rather than reading past it.
struct WireReader {
    private let buffer: UnsafeBufferPointer<UInt8>
    private var index: Int
    private let end: Int

    init(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        self.buffer = buffer
        index = range.lowerBound
        end = range.upperBound
    }

    var atEnd: Bool { index >= end }

    func peek() -> UInt8? { index < end ? buffer[index] : nil }

    /// A varint of at most ten bytes.
    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < end, shift < 70 {
            let byte = buffer[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    mutating func fixed64() -> UInt64? {
        guard end - index >= 8, let base = buffer.baseAddress else { return nil }
        let bits = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        index += 8
        return UInt64(littleEndian: bits)
    }

    /// A length and the range of that many bytes after it.
    mutating func lengthDelimited() -> Range<Int>? {
        guard let length = varint(), length <= UInt64(end - index) else { return nil }
        let range = index..<(index + Int(length))
        index = range.upperBound
        return range
    }
}
