import Foundation
import HealthModel
import HealthWire

/// The one place an `HKObject` archive (`NSSecureCoding`) is written and read.
///
/// **Format.** The sample travels as the wire's own `SampleRecord` bytes (one `SampleBatch`
/// message), read back by the same bounded, validating parser the SDK applies to healthd's
/// answers; the source revision sits beside it as flat fields (`HKSourceRevision`'s, since the
/// wire's source record has no product type or system version). So every value kind — quantity
/// and its series, category, workout with events, activities and totals, correlation with its
/// members, route, heartbeat series, ECG, State of Mind, assessments — round-trips through the
/// code that already handles it, and a new kind needs no archive code of its own. Nothing is an
/// archived object nested inside: swift-corelibs-foundation traps, instead of failing, when a
/// nested object is of an unexpected class (see `NSCoder+ArchiveFields`).
///
/// **Decoding** builds the object as a fetched one (`FetchedObjectParts`), so a decoded sample is
/// what a query would have handed out for the same record: same UUID (hence `==`), type, dates,
/// value, metadata, device and source revision. Anything malformed — missing or non-data field,
/// bytes the parser refuses, an unknown type, a value of another kind than the class being
/// decoded — decodes as nothing (nil), as a secure-decoding failure does.
///
/// What an archive does not keep: dates finer than a microsecond (the wire's and the store's
/// precision), and metadata entries that could not be converted when the object was made (saving
/// such an object fails; its archive holds the entries that did convert).
struct ArchivedSample {
    let record: SampleRecord
    let type: HKSampleType
    /// For the object being decoded and, for a correlation, its members.
    let parts: FetchedObjectParts

    private static let sampleKey = "HKObjectSample"

    static func encode(_ sample: HKSample, with coder: NSCoder) {
        let bytes = SampleList([sample.archiveRecord]).wireBytes()
        coder.encode(Data(bytes) as NSData, forKey: sampleKey)
        sample.sourceRevision.encode(with: coder)
    }

    init?(_ coder: NSCoder) {
        guard let bytes = coder.decodeRequiredData(forKey: Self.sampleKey),
              let samples = try? SampleList(wire: Array(bytes)).samples, samples.count == 1,
              let revision = HKSourceRevision(coder: coder) else { return nil }
        let parts = FetchedObjectParts()
        guard let type = parts.type(samples[0].typeIdentifier) as? HKSampleType else { return nil }
        var record = samples[0]
        record.source = parts.share(revision)
        self.record = record
        self.type = type
        self.parts = parts
    }
}

extension HKSample {
    /// The sample as it stands, for an archive: like `saveRecord()`, but with the source and
    /// without refusing metadata that did not convert, and a correlation's members as they are
    /// now (with the UUIDs their save assigned).
    var archiveRecord: SampleRecord {
        var record = matchingRecord
        if let correlation = self as? HKCorrelation {
            record.value = .correlation(correlation.orderedObjects.map(\.archiveRecord))
        }
        record.quantitySeries = (self as? HKQuantitySample)?.series
        return record
    }
}
