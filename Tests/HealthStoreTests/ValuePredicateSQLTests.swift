import Foundation
import HealthModel
import Testing

@testable import HealthStore

/// The device, metadata, quantity and category predicates compiled to SQL agree with
/// `SamplePredicate.matches` (the reference semantics) on a real encrypted store, and never
/// splice a value into the SQL text.
@Suite(.timeLimit(.minutes(10))) struct ValuePredicateSQLTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let sleep = HKCategoryTypeIdentifier.sleepAnalysis.rawValue
    static let source = SourceRecord(bundleIdentifier: "org.example.app", name: "App", version: "1")
    static let watch = DeviceRecord(name: "Watch", manufacturer: "Acme", model: "W1", hardwareVersion: "h1", firmwareVersion: "f1",
                                    softwareVersion: "s1", localIdentifier: "local-1", udiDeviceIdentifier: "udi-1")
    static let strap = DeviceRecord(name: "Strap", manufacturer: "Acme", model: "S2")

    /// Heart-rate samples (count/min) with devices and metadata of every kind.
    static var heartRates: [SampleRecord] {
        let metadata: [[String: MetadataValue]] = [
            [:],
            ["note": .string("rest"), "score": .number(3), "ok": .bool(true)],
            ["note": .string("run"), "score": .number(7.5), "at": .date(Date(timeIntervalSince1970: 1_600_000_000))],
            ["note": .string("Run"), "weight": .quantity(value: 70, unit: "kg"), "ok": .bool(false)],
            ["score": .string("7.5"), "weight": .quantity(value: 154, unit: "lb"), "it's": .string("quoted")],
        ]
        return metadata.enumerated().map { index, entries in
            let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
            return SampleRecord(uuid: UUID(), typeIdentifier: heartRate, startDate: start, endDate: start,
                                value: .quantity(Double(50 + index * 10), unit: "count/min"), metadata: entries,
                                device: [nil, watch, strap, watch, nil][index])
        }
    }

    static func sleepSamples() -> [SampleRecord] {
        (0..<5).map { value in
            let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(value) * 600)
            return SampleRecord(uuid: UUID(), typeIdentifier: sleep, startDate: start, endDate: start.addingTimeInterval(600),
                                value: .category(value))
        }
    }

    static let heartRatePredicates: [SamplePredicate] = [
        .device(.name, allowedValues: ["Watch"]),
        .device(.manufacturer, allowedValues: ["Acme"]),
        .device(.model, allowedValues: ["S2", "W9"]),
        .device(.udiDeviceIdentifier, allowedValues: ["udi-1"]),
        .device(.localIdentifier, allowedValues: []),
        .not(.device(.name, allowedValues: ["Watch"])),
        .metadata(key: "note", .exists),
        .metadata(key: "it's", .exists),
        .not(.metadata(key: "score", .exists)),
        .metadata(key: "note", .oneOf([.string("run"), .string("rest")])),
        .metadata(key: "score", .oneOf([.number(7.5)])),
        .metadata(key: "score", .oneOf([.string("7.5")])),
        .metadata(key: "note", .compare(.greaterThan, .string("Run"))),
        .metadata(key: "note", .compare(.notEqualTo, .string("run"))),
        .not(.metadata(key: "note", .compare(.equalTo, .string("run")))),
        .metadata(key: "score", .compare(.greaterThanOrEqualTo, .number(3))),
        .metadata(key: "score", .compare(.lessThan, .number(5))),
        .metadata(key: "at", .compare(.lessThan, .date(Date(timeIntervalSince1970: 1_650_000_000)))),
        .metadata(key: "ok", .compare(.equalTo, .bool(true))),
        .metadata(key: "ok", .compare(.notEqualTo, .bool(true))),
        .metadata(key: "weight", .compare(.greaterThan, .quantity(value: 69.9, unit: "kg"))),
        .metadata(key: "weight", .compare(.lessThan, .quantity(value: 70000, unit: "g"))),
        .metadata(key: "weight", .compare(.equalTo, .quantity(value: 70, unit: "count"))),
        .quantity(.greaterThan, value: 1, unit: "count/s"),
        .quantity(.lessThanOrEqualTo, value: 70, unit: "count/min"),
        .quantity(.equalTo, value: 80, unit: "count/min"),
        .not(.quantity(.equalTo, value: 80, unit: "count/min")),
        .and([.device(.manufacturer, allowedValues: ["Acme"]), .quantity(.lessThan, value: 75, unit: "count/min")]),
        .or([.metadata(key: "ok", .exists), .quantity(.greaterThan, value: 85, unit: "count/min")]),
    ]

    static let sleepPredicates: [SamplePredicate] = ComparisonOperator.allCases.map { .categoryValue($0, 2) }
        + [.not(.categoryValue(.lessThan, 3))]

    /// Checks that each predicate's query returns what `matches` picks from everything stored;
    /// returns how many predicates picked some but not all samples (so the check was not vacuous).
    @discardableResult
    static func compare(_ type: String, _ predicates: [SamplePredicate], _ database: HealthDatabase) throws -> Int {
        var discriminating = 0
        var stored: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: type), scope: .allSources) { stored += $0 }
        let sampleType = try #require(HKObjectType.type(forIdentifier: type) as? HKSampleType)
        for predicate in predicates {
            var found: [UUID] = []
            try database.samples.query(SampleQuerySpec(typeIdentifier: type, predicate: predicate), scope: .allSources) {
                found += $0.map(\.uuid)
            }
            let canonical = try predicate.canonicalized(for: sampleType)
            #expect(found == stored.filter(canonical.matches).map(\.uuid), "\(predicate)")
            if !found.isEmpty, found.count < stored.count { discriminating += 1 }
        }
        return discriminating
    }

    @Test func sqlAgreesWithTheReferenceSemantics() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        // Stored as the broker stores them: in the canonical unit (count/s for heart rate).
        _ = try await database.samples.insert(try SampleValidator.canonicalized(batch: Self.heartRates), source: Self.source)
        _ = try await database.samples.insert(try SampleValidator.canonicalized(batch: Self.sleepSamples()), source: Self.source)
        #expect(try Self.compare(Self.heartRate, Self.heartRatePredicates, database) >= 24)
        #expect(try Self.compare(Self.sleep, Self.sleepPredicates, database) == 7)
        try store.close()
    }

    @Test func handComputedMatches() throws {
        // 50, 60, 70, 80, 90 count/min: above 1 count/s (60/min) are 70, 80, 90.
        let records = Self.heartRates
        let above = try SamplePredicate.quantity(.greaterThan, value: 1, unit: "count/s").canonicalized(for: HKQuantityType(.heartRate))
        #expect(records.filter(above.matches).count == 3)
        // 70 kg and 154 lb (69.85 kg): only the first is above 69.9 kg.
        let heavy = SamplePredicate.metadata(key: "weight", .compare(.greaterThan, .quantity(value: 69.9, unit: "kg")))
        #expect(records.filter(heavy.matches).map(\.startDate) == [records[3].startDate])
    }

    @Test func valuesAreBoundNeverSpliced() {
        let hostile = "x') OR 1=1; DROP TABLE objects; --"
        for predicate: SamplePredicate in [.device(.name, allowedValues: [hostile]), .metadata(key: hostile, .exists),
                                           .metadata(key: "k", .compare(.equalTo, .string(hostile)))] {
            let compiled = SampleSQL.compile(predicate, of: 1, within: .allSources)
            #expect(!compiled.sql.contains("DROP"), "\(compiled.sql)")
        }
    }

    @Test func aQuantityInAnIncompatibleUnitIsRefused() throws {
        #expect(throws: HKError(.errorInvalidArgument,
                                "the predicate's unit kg is not compatible with HKQuantityTypeIdentifierHeartRate (expected a unit like count/s)")) {
            _ = try SampleQuerySpec(typeIdentifier: Self.heartRate, predicate: .quantity(.equalTo, value: 1, unit: "kg")).canonicalPredicate()
        }
        #expect(throws: HKError(.errorInvalidArgument,
                                "a category predicate cannot apply to HKQuantityTypeIdentifierHeartRate, which is not a category type")) {
            _ = try SampleQuerySpec(typeIdentifier: Self.heartRate, predicate: .not(.categoryValue(.equalTo, 1))).canonicalPredicate()
        }
        #expect(throws: HKError(.errorInvalidArgument,
                                "a quantity predicate cannot apply to HKCategoryTypeIdentifierSleepAnalysis, which is not a quantity type")) {
            _ = try SampleQuerySpec(typeIdentifier: Self.sleep, predicate: .quantity(.equalTo, value: 1, unit: "count")).canonicalPredicate()
        }
    }
}
