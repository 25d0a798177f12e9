import Foundation
public import HealthModel

/// Samples encoded once to be measured (how answers are cut, `ResultBatching`) and kept, so the
/// answer that carries them is built from those bytes rather than encoding every sample again.
/// A sample's entry in a list — its tag (field 1), length and message — is the same in a
/// `SampleBatch` and in an `AnchoredQueryBatch` (whose samples are field 1 too, its other fields
/// after them), so a list is its samples' entries one after another.
///
/// One per answer being built; not shared between threads.
public final class EncodedSamples {
    private var encoded: [UUID: [UInt8]] = [:]

    public init() {}

    /// The bytes `record` takes in a list of samples, kept for the list that sends it.
    public func size(of record: SampleRecord) -> Int {
        let bytes = SampleList([record]).wireBytes()
        encoded[record.uuid] = bytes
        return bytes.count
    }

    /// `record`'s entry in a list: the bytes kept when it was measured (and forgotten now), or
    /// encoded here.
    public func take(_ record: SampleRecord) -> [UInt8] {
        encoded.removeValue(forKey: record.uuid) ?? SampleList([record]).wireBytes()
    }

    /// `SampleList(records).wireBytes()`, byte for byte. A sample measured but held for the next
    /// batch stays kept.
    public func sampleList(_ records: [SampleRecord]) -> [UInt8] {
        Self.joined(records.map(take))
    }

    /// `AnchoredQueryBatch(samples:deletedObjects:endOfDelivery:anchor:).wireBytes()`, byte for byte.
    public func anchoredBatch(samples: [SampleRecord], deletedObjects: [DeletedObjectRecord], endOfDelivery: Bool,
                              anchor: [UInt8]) -> [UInt8] {
        // A step's objects read past its cut are read and measured again by the next step.
        defer { encoded.removeAll(keepingCapacity: true) }
        // Field 1 first, then the message's other fields, as protobuf-c writes them.
        return sampleList(samples) + AnchoredQueryBatch(samples: [], deletedObjects: deletedObjects, endOfDelivery: endOfDelivery,
                                                 anchor: anchor).wireBytes()
    }

    private static func joined(_ parts: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { bytes += part }
        return bytes
    }
}
