@testable import AppleHealthExport
import Foundation
import HealthModel
import Testing

/// The import's sync identifiers are digested field by field (`StableHash.Digest`) instead of
/// from the joined text; they must stay exactly what earlier versions derived — the digest of
/// type, start and end in µs, source name, version, device, the record's unit and value and its
/// metadata entries, joined by U+001F — or a file imported before would be imported twice.
@Suite(.timeLimit(.minutes(10))) struct ImportSyncIdentityTests {
    /// The identifier as earlier versions spelled it out.
    static func joinedIdentity(_ record: ExportRecord) -> String {
        let header = record.header
        var fields = [header.type, "\(header.startDate.microsecondsSince1970)", "\(header.endDate.microsecondsSince1970)",
                      header.source.name ?? "", header.source.version ?? "", header.source.device ?? ""]
        fields += [record.unit ?? "", record.value ?? ""]
        fields += header.metadata.map { "\($0.key)=\($0.value)" }
        return ExportConversion.syncPrefix + StableHash.hex(fields.joined(separator: "\u{1F}"))
    }

    static func record(start: TimeInterval, name: String?, version: String?, device: String?, unit: String?,
                       metadata: [ExportMetadataEntry]) -> ExportRecord {
        let startDate = Date(timeIntervalSince1970: start)
        return ExportRecord(header: ExportSampleHeader(type: "HKQuantityTypeIdentifierHeartRate",
                                                       source: ExportSource(name: name, version: version, device: device),
                                                       creationDate: nil, startDate: startDate, endDate: startDate.addingTimeInterval(0.5),
                                                       metadata: metadata, line: 1),
                            unit: unit, value: "72", beats: [])
    }

    /// Each argument varies one field from the first: dates before 1970 (negative µs) and at 0,
    /// sources missing or not ASCII, no device, no unit, metadata with `=` and the separator.
    @Test(arguments: [
        record(start: 1_700_000_000.25, name: "Watch", version: "10.1", device: "<<HKDevice: 0x1>, name:Apple Watch>", unit: "count/min",
               metadata: [ExportMetadataEntry(key: "HKWasUserEntered", value: "0")]),
        record(start: -86_400.5, name: "Watch", version: "10.1", device: nil, unit: "count/min", metadata: []),
        record(start: 0, name: "Watch", version: "10.1", device: nil, unit: "count/min", metadata: []),
        record(start: 1_700_000_000, name: nil, version: nil, device: nil, unit: nil, metadata: []),
        record(start: 1_700_000_000, name: "Mi Band 💓 ñ", version: "β", device: nil, unit: "count/min", metadata: []),
        record(start: 1_700_000_000, name: "Watch", version: "1", device: nil, unit: "count/min",
               metadata: [ExportMetadataEntry(key: "a=b", value: "c\u{1F}d"), ExportMetadataEntry(key: "", value: "")]),
    ])
    func theDigestIsTheJoinedTextsDigest(record: ExportRecord) throws {
        let converted = try ExportConversion.sample(record).record
        #expect(converted.metadata[HKMetadataKeySyncIdentifier] == .string(Self.joinedIdentity(record)))
    }

    /// The hex form pinned to values computed outside this code (FNV-1a lanes as documented,
    /// `%016x%016x`): the other tests compare two digests through the same `hex`, so a wrong
    /// digit order or a lost leading zero would pass them. "x7500" and "x5580" give lanes with
    /// two leading zero digits (first and second lane).
    @Test func theHexFormIsBothLanesZeroPadded() {
        #expect(StableHash.hex("") == "cbf29ce48422232584222325cbf29ce4")
        #expect(StableHash.hex("x7500") == "0041157ac45c93f73091e4b6d3d4fd5c")
        #expect(StableHash.hex("x5580") == "d070a58a0f7153b900f15d30d63a5957")
    }

    @Test func decimalDigitsAreThoseOfTheStringForm() {
        for value: Int64 in [0, 7, -7, 10, 1_700_000_000_250_000, .max, .min] {
            var streamed = StableHash.Digest()
            streamed.append(value)
            #expect(streamed.hex == StableHash.hex("\(value)"), "\(value)")
        }
    }
}
