import Foundation
import HealthModel
import Testing

@testable import HealthStore

/// A quantity predicate means the same in every read kind. HealthKit's
/// `predicateForQuantitySamples(with:quantity:)` compares "the sample's quantity" with the given
/// `HKQuantity`, whatever unit either was written in (Apple, "predicateForQuantitySamples(with:
/// quantity:)": "Returns a predicate for matching quantity samples based on their quantity
/// value"). Samples are stored in the type's canonical unit (kg for body mass), so a predicate
/// written in pounds has to be converted before it is compared — by the one function every read
/// compiles predicates through (`SampleSQL.condition(_:of:within:_:)`). Only the sample and
/// correlation queries used to convert; statistics, anchored, observer, source and deletion
/// reads compared 132 lb with 70 kg as numbers.
///
/// Three body-mass samples (50, 70, 90 kg) and "more than 60 kg written as 132.277 lb": every
/// read kind must find exactly the two heavier ones (the unconverted comparison finds none).
@Suite(.timeLimit(.minutes(10))) struct QuantityPredicateUnitTests {
    static let bodyMass = HKQuantityTypeIdentifier.bodyMass.rawValue
    static let source = SourceRecord(bundleIdentifier: "org.example.scale", name: "Scale", version: "1")
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    static let kilograms: [Double] = [50, 70, 90]
    /// 60 kg in pounds (60 / 0.45359237), so the bound sits between 50 and 70 kg.
    static let heavierThan60kg = SamplePredicate.quantity(.greaterThan, value: 132.277, unit: "lb")

    struct Store {
        let directory = TemporaryDirectory()
        let database: HealthDatabase

        init() async throws {
            let store = try EncryptedDatabase.open(directory: directory.path)
            database = try HealthDatabase(writer: store.writer)
            let records = QuantityPredicateUnitTests.kilograms.enumerated().map { index, kg in
                SampleRecord(uuid: UUID(), typeIdentifier: QuantityPredicateUnitTests.bodyMass,
                             startDate: QuantityPredicateUnitTests.t0.addingTimeInterval(Double(index) * 60),
                             endDate: QuantityPredicateUnitTests.t0.addingTimeInterval(Double(index) * 60),
                             value: .quantity(kg * 1000, unit: "g"))
            }
            _ = try await database.samples.insert(try SampleValidator.canonicalized(batch: records), source: QuantityPredicateUnitTests.source)
        }
    }

    static func kg(_ records: [SampleRecord]) -> [Double] {
        records.compactMap { if case let .quantity(value, _) = $0.value { value } else { nil } }.sorted()
    }

    @Test func sampleQuery() async throws {
        let store = try await Store()
        var found: [SampleRecord] = []
        try store.database.samples.query(SampleQuerySpec(typeIdentifier: Self.bodyMass, predicate: Self.heavierThan60kg), scope: .allSources) { found += $0 }
        #expect(Self.kg(found) == [70, 90])
    }

    @Test func statistics() async throws {
        let store = try await Store()
        let sources = try store.database.statistics.samples(typeIdentifier: Self.bodyMass, predicate: Self.heavierThan60kg, scope: .allSources)
        #expect(sources.flatMap(\.samples).count == 2)
    }

    @Test func anchoredFeed() async throws {
        let store = try await Store()
        let batch = try store.database.changeFeed.changes(of: Self.bodyMass, matching: Self.heavierThan60kg, scope: .allSources,
                                                          after: .origin, limit: 0)
        #expect(Self.kg(batch.added) == [70, 90])
    }

    @Test func observerCheck() async throws {
        let store = try await Store()
        let heavier = try store.database.changeFeed.hasChanges(of: Self.bodyMass, matching: Self.heavierThan60kg, scope: .allSources, after: 0)
        #expect(heavier.changed)
        // Above every sample (200 kg in pounds): no change matches, converted or not.
        let none = try store.database.changeFeed.hasChanges(of: Self.bodyMass, matching: .quantity(.greaterThan, value: 440.925, unit: "lb"),
                                                            scope: .allSources, after: 0)
        #expect(!none.changed)
    }

    @Test func sourceQuery() async throws {
        let store = try await Store()
        let sources = try store.database.samples.sources(of: Self.bodyMass, matching: Self.heavierThan60kg, scope: .allSources)
        #expect(sources.map(\.bundleIdentifier) == [Self.source.bundleIdentifier])
    }

    @Test func deletions() async throws {
        let store = try await Store()
        #expect(try await store.database.samples.deleteAnySource(typeIdentifier: Self.bodyMass, predicate: Self.heavierThan60kg, dryRun: true) == 2)
        let deleted = try await store.database.samples.deleteMatching(typeIdentifier: Self.bodyMass, predicate: Self.heavierThan60kg,
                                                                      appID: Self.source.bundleIdentifier, workouts: .allSources)
        #expect(deleted == 2)
        var left: [SampleRecord] = []
        try store.database.samples.query(SampleQuerySpec(typeIdentifier: Self.bodyMass), scope: .allSources) { left += $0 }
        #expect(Self.kg(left) == [50])
    }

    /// A unit the type cannot be measured in is the request's error in every read kind, never
    /// an empty answer that looks like data.
    @Test func anIncompatibleUnitIsRefused() async throws {
        let store = try await Store()
        let metres = SamplePredicate.quantity(.greaterThan, value: 1, unit: "m")
        #expect(throws: HKError.self) {
            try store.database.statistics.samples(typeIdentifier: Self.bodyMass, predicate: metres, scope: .allSources)
        }
        #expect(throws: HKError.self) {
            try store.database.changeFeed.hasChanges(of: Self.bodyMass, matching: metres, scope: .allSources, after: 0)
        }
    }
}
