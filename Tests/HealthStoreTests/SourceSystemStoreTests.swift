import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// v31: the product type and system version of a source revision, stored once per distinct pair
/// (`source_systems`), returned by every reader, matched by the source-revision predicate, and
/// taken from each record's device on import.
@Suite(.timeLimit(.minutes(10))) struct SourceSystemStoreTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let laptop = SourceRecord(bundleIdentifier: "org.example.app", name: "App", version: "1", productType: "ThinkPad X1",
                                     operatingSystemVersion: SystemVersion(major: 6, minor: 1, patch: 0))
    static let board = SourceRecord(bundleIdentifier: "org.example.app", name: "App", version: "1", productType: "Raspberry Pi 5",
                                    operatingSystemVersion: SystemVersion(major: 6, minor: 6, patch: 20))
    /// As every object stored before v31: neither recorded.
    static let unrecorded = SourceRecord(bundleIdentifier: "org.example.app", name: "App", version: "1")

    static func samples(_ count: Int, offset: Int, device: DeviceRecord? = nil) -> [SampleRecord] {
        (0..<count).map { index in
            let begin = start.addingTimeInterval(Double(offset + index) * 60)
            return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: begin, endDate: begin.addingTimeInterval(60),
                                value: .quantity(Double(10 + index), unit: "count"), device: device)
        }
    }

    /// One app saving on two hosts, and rows recording neither: each reader returns each row's
    /// own product type and system version, the fetched batch lists the three as three sources,
    /// and `source_systems` holds one row per host however many objects each saved.
    @Test func everyReaderReturnsTheRowsOwnSystemStoredOncePerHost() async throws {
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer)
        var expected: [SampleRecord] = []
        for (index, source) in [Self.laptop, Self.unrecorded, Self.board, Self.laptop].enumerated() {
            let saved = Self.samples(10, offset: index * 10)
            let uuids = try await database.samples.insert(saved, source: source)
            expected += zip(saved, uuids).map { record, uuid in
                var stored = record
                stored.uuid = uuid
                stored.source = source
                return stored
            }
        }
        let spec = SampleQuerySpec(typeIdentifier: Self.steps, sort: [SampleSort(.startDate, ascending: true)])
        var queried: [SampleRecord] = []
        try database.samples.query(spec, scope: .allSources, batchSize: 7) { queried += $0 }
        #expect(queried == expected)
        let changes = try database.changeFeed.changes(of: Self.steps, matching: nil, scope: .allSources, after: .origin, limit: 0)
        #expect(changes.added == expected)

        var fetched: [SourceRecord] = []
        try database.samples.queryFetched(spec, scope: .allSources, batchSize: 7) { batch in
            fetched += batch.rows.map { row in row.source.map { batch.sources[Int($0)] } ?? batch.records[0].source! }
        }
        #expect(fetched == expected.map { $0.source! })

        let rows = try await writer.read { db in try Row.fetchAll(db, sql: "SELECT product_type, os_version FROM source_systems ORDER BY id") }
        #expect(rows.map { [$0[0] as String, $0[1] as String] } == [["ThinkPad X1", "6.1.0"], ["Raspberry Pi 5", "6.6.20"]])
        let unstamped = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM objects WHERE system_id IS NULL") }
        #expect(unstamped == 10)
    }

    /// The source-revision predicate against rows of the two hosts and rows recording neither,
    /// one field varied at a time; nil means "any".
    @Test(arguments: [
        (nil as String?, nil as SystemVersion?, 30),
        ("ThinkPad X1", nil, 10),
        ("Raspberry Pi 5", nil, 10),
        ("iPhone14,2", nil, 0),
        (nil, SystemVersion(major: 6, minor: 1, patch: 0), 10),
        (nil, SystemVersion(major: 6, minor: 1, patch: 1), 0),
        ("ThinkPad X1", SystemVersion(major: 6, minor: 1, patch: 0), 10),
        ("ThinkPad X1", SystemVersion(major: 6, minor: 6, patch: 20), 0),
        // What the unrecorded rows report: no product type (''), 0.0.0.
        ("", SystemVersion.unrecorded, 10),
        ("", nil, 10),
        (nil, SystemVersion.unrecorded, 10),
    ])
    func theSourceRevisionPredicateMatchesEachFieldAlone(productType: String?, system: SystemVersion?, expected: Int) async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        for (index, source) in [Self.laptop, Self.unrecorded, Self.board].enumerated() {
            _ = try await database.samples.insert(Self.samples(10, offset: index * 10), source: source)
        }
        let match = SourceRevisionMatch(bundleIdentifier: "org.example.app", version: nil, productType: productType,
                                        operatingSystemVersion: system)
        let predicate = SamplePredicate.sourceRevisions([match])
        var found: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: Self.steps, predicate: predicate), scope: .allSources) { found += $0 }
        #expect(found.count == expected)
        // The in-memory rule (`SourceRevisionMatch.matches`) agrees with the store's.
        #expect(found.allSatisfy { predicate.matches($0) })
    }

    /// An import stamps each record with what its own device names (hardware, software), not
    /// the importing source's; a record without a device, or whose values cannot be a product
    /// type or system version, records neither.
    @Test func anImportTakesEachRecordsSystemFromItsDevice() async throws {
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer)
        let phone = DeviceRecord(name: "iPhone", model: "iPhone", hardwareVersion: "iPhone14,2", softwareVersion: "16.0")
        let nul = DeviceRecord(name: "Band", hardwareVersion: "Band\u{0}2", softwareVersion: "1.2.3.4")
        let long = DeviceRecord(name: "Band", hardwareVersion: String(repeating: "é", count: 129), softwareVersion: "9")
        var records = Self.samples(1, offset: 0, device: phone) + Self.samples(1, offset: 1) + Self.samples(1, offset: 2, device: nul)
            + Self.samples(1, offset: 3, device: long)
        for index in records.indices { records[index].metadata[HKMetadataKeySyncIdentifier] = .string("s\(index)") }
        for index in records.indices { records[index].metadata[HKMetadataKeySyncVersion] = .number(1) }
        let importer = SourceRecord(bundleIdentifier: "@import/Apple Health/Phone", name: "Phone (Apple Health)", version: "17.4",
                                    productType: "host", operatingSystemVersion: SystemVersion(major: 6, minor: 1, patch: 0))
        _ = try await database.samples.importBatch(records, source: importer)
        var found: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: Self.steps, sort: [SampleSort(.startDate, ascending: true)]),
                                   scope: .allSources) { found += $0 }
        #expect(found.map { $0.source?.productType } == ["iPhone14,2", nil, nil, nil])
        #expect(found.map { $0.source?.operatingSystemVersion } == [SystemVersion(major: 16, minor: 0, patch: 0), .unrecorded, .unrecorded,
                                                                  SystemVersion(major: 9, minor: 0, patch: 0)])
        #expect(found.allSatisfy { $0.source?.version == "17.4" })
    }

    /// A correlation and its samples (read by `queryCorrelations` and the members' decoder) carry
    /// the revision they were saved under, as plain samples do.
    @Test func aCorrelationAndItsSamplesCarryTheirSystem() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
        let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
        let bloodPressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue
        func half(_ type: String, _ value: Double) -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: Self.start, endDate: Self.start, value: .quantity(value, unit: "mmHg"))
        }
        let reading = SampleRecord(uuid: UUID(), typeIdentifier: bloodPressure, startDate: Self.start, endDate: Self.start,
                                   value: .correlation([half(systolic, 120), half(diastolic, 80)]))
        _ = try await database.samples.insert([reading], source: Self.board)
        var found: [SampleRecord] = []
        try database.samples.queryCorrelations(CorrelationQuerySpec(typeIdentifier: bloodPressure),
                                               objectScopes: [systolic: .allSources, diastolic: .allSources]) { found += $0 }
        #expect(found.count == 1)
        #expect(found.first?.source == Self.board)
        guard case let .correlation(members)? = found.first?.value else {
            Issue.record("not a correlation: \(found)")
            return
        }
        #expect(members.map(\.source) == [Self.board, Self.board])
    }
}
