import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Rows become exactly the records that were saved, through every reader that decodes them
/// (queries and the change feed), while the decoder reads each source and device once per
/// statement and skips what a type does not use.
@Suite(.timeLimit(.minutes(10))) struct SampleRowDecoderTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// Samples that vary everything a row can hold: devices (two, and none), metadata (some
    /// present, some not), values (in the canonical unit, as the broker stores them).
    static func samples(_ count: Int, offset: Int) -> [SampleRecord] {
        (0..<count).map { index in
            let minute = offset + index
            let begin = start.addingTimeInterval(Double(minute) * 60)
            let device = minute % 3 == 0 ? nil : DeviceRecord(name: "Strap \(minute % 3)", manufacturer: "Example", model: "S\(minute % 3)")
            let metadata: [String: MetadataValue] = minute % 4 == 0 ? ["HKWasUserEntered": .bool(false), "zone": .number(Double(minute % 5))] : [:]
            return SampleRecord(uuid: UUID(), typeIdentifier: heartRate, startDate: begin, endDate: begin.addingTimeInterval(60),
                                value: .quantity(Double(60 + minute % 50), unit: "count/s"), metadata: metadata, device: device)
        }
    }

    /// What a reader must get back for `saved`: the store's UUIDs and the saving source.
    static func stored(_ saved: [SampleRecord], uuids: [UUID], source: SourceRecord) -> [SampleRecord] {
        zip(saved, uuids).map { record, uuid in
            var stored = record
            stored.uuid = uuid
            stored.source = source
            return stored
        }
    }

    @Test func queriesAndTheChangeFeedReturnWhatWasSaved() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        // Three sources, one of them saving under two versions: the version is each object's own.
        let watch1 = SourceRecord(bundleIdentifier: "org.example.watch", name: "Watch", version: "1")
        let watch2 = SourceRecord(bundleIdentifier: "org.example.watch", name: "Watch", version: "2")
        let phone = SourceRecord(bundleIdentifier: "org.example.phone", name: "Phone", version: nil)
        let band = SourceRecord(bundleIdentifier: "org.example.band", name: "Band", version: "7.1")
        var expected: [SampleRecord] = []
        for (index, source) in [watch1, phone, watch2, band].enumerated() {
            let saved = Self.samples(25, offset: index * 25)
            expected += Self.stored(saved, uuids: try await database.samples.insert(saved, source: source), source: source)
        }

        var queried: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: Self.heartRate, sort: [SampleSort(.startDate, ascending: true)]),
                                   scope: .allSources, batchSize: 7) { queried += $0 }
        #expect(queried == expected)

        let changes = try database.changeFeed.changes(of: Self.heartRate, matching: nil, scope: .allSources, after: .origin, limit: 0)
        #expect(changes.added == expected)
    }

    @Test func aCategoryTypeDecodesItsValueAndNoUnit() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let sleep = HKCategoryTypeIdentifier.sleepAnalysis.rawValue
        let source = SourceRecord(bundleIdentifier: "org.example.sleep", name: "Sleep", version: "3")
        let saved = (0..<3).map { night in
            SampleRecord(uuid: UUID(), typeIdentifier: sleep, startDate: Self.start.addingTimeInterval(Double(night) * 86_400),
                         endDate: Self.start.addingTimeInterval(Double(night) * 86_400 + 28_800), value: .category(night))
        }
        let expected = Self.stored(saved, uuids: try await database.samples.insert(saved, source: source), source: source)
        var queried: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: sleep), scope: .allSources) { queried += $0 }
        #expect(queried == expected)
    }
}
