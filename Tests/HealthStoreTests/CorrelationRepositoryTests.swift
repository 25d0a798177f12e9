import Foundation
import HealthModel
import Testing

@testable import HealthStore

/// Correlations on a real encrypted store: stored with their samples, found by sample queries
/// of the samples' types, and visible by the read scopes of the types they hold.
@Suite(.timeLimit(.minutes(10))) struct CorrelationRepositoryTests {
    static let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
    static let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
    static let bloodPressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue
    static let writer = SourceRecord(bundleIdentifier: "org.example.writer", name: "Writer", version: "3")
    static let reader = SourceRecord(bundleIdentifier: "org.example.reader", name: "Reader", version: "1")

    static func reading(_ high: Double, _ low: Double, minute: Int) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(minute) * 60)
        func half(_ type: String, _ value: Double) -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: start, value: .quantity(value, unit: "mmHg"))
        }
        return SampleRecord(uuid: UUID(), typeIdentifier: bloodPressure, startDate: start, endDate: start,
                            value: .correlation([half(systolic, high), half(diastolic, low)]))
    }

    static func withStore(_ body: (HealthDatabase) async throws -> Void) async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        try await body(try HealthDatabase(writer: store.writer))
        try store.close()
    }

    static func correlations(_ database: HealthDatabase, systolic systolicScope: Visibility, diastolic diastolicScope: Visibility,
                             objectPredicates: [String: SamplePredicate] = [:]) throws -> [SampleRecord] {
        var found: [SampleRecord] = []
        try database.samples.queryCorrelations(
            CorrelationQuerySpec(typeIdentifier: bloodPressure, objectPredicates: objectPredicates),
            objectScopes: [systolic: systolicScope, diastolic: diastolicScope], batching: .rows(2)) { found += $0 }
        return found
    }

    /// (systolic, diastolic) of each correlation, in order.
    static func values(_ records: [SampleRecord]) -> [[Double]] {
        records.map { record in
            guard case let .correlation(objects) = record.value else { return [] }
            return objects.map { if case let .quantity(value, _) = $0.value { value } else { -1 } }
        }
    }

    @Test func aSaveAnswersEachCorrelationsUUIDThenItsSamples() async throws {
        try await Self.withStore { database in
            let uuids = try await database.samples.insert([Self.reading(120, 80, minute: 0), Self.reading(130, 85, minute: 1)],
                                                         source: Self.writer)
            #expect(uuids.count == 6)
            let stored = try Self.correlations(database, systolic: .allSources, diastolic: .allSources)
            #expect(stored.map(\.uuid) == [uuids[0], uuids[3]])
            #expect(stored.flatMap { record -> [UUID] in
                guard case let .correlation(objects) = record.value else { return [] }
                return objects.map(\.uuid)
            } == [uuids[1], uuids[2], uuids[4], uuids[5]])
            #expect(Self.values(stored) == [[120, 80], [130, 85]])
            #expect(stored.allSatisfy { $0.source == Self.writer })

            // The samples are ordinary samples of their types.
            var systolicSamples: [SampleRecord] = []
            try database.samples.query(SampleQuerySpec(typeIdentifier: Self.systolic), scope: .allSources) { systolicSamples += $0 }
            #expect(systolicSamples.map(\.uuid) == [uuids[1], uuids[4]])
        }
    }

    @Test func aCorrelationIsVisibleOnlyWhenEachOfItsSamplesIs() async throws {
        try await Self.withStore { database in
            _ = try await database.samples.insert([Self.reading(120, 80, minute: 0)], source: Self.writer)
            _ = try await database.samples.insert([Self.reading(140, 90, minute: 1)], source: Self.reader)
            let own = Visibility.ownSamples(appID: Self.reader.bundleIdentifier)
            #expect(Self.values(try Self.correlations(database, systolic: .allSources, diastolic: .allSources)) == [[120, 80], [140, 90]])
            #expect(Self.values(try Self.correlations(database, systolic: own, diastolic: own)) == [[140, 90]])
            // Allowed one half only: another app's reading would reveal the hidden half.
            #expect(Self.values(try Self.correlations(database, systolic: .allSources, diastolic: own)) == [[140, 90]])
            #expect(Self.values(try Self.correlations(database, systolic: own, diastolic: .allSources)) == [[140, 90]])
            // An app that never saved anything (no source row) sees nothing.
            let stranger = Visibility.ownSamples(appID: "org.example.stranger")
            #expect(try Self.correlations(database, systolic: .allSources, diastolic: stranger).isEmpty)
            #expect(try Self.correlations(database, systolic: stranger, diastolic: stranger).isEmpty)
        }
    }

    @Test func objectPredicatesMatchWhenAnySampleOfTheirTypeMatches() async throws {
        try await Self.withStore { database in
            let uuids = try await database.samples.insert(
                [Self.reading(120, 80, minute: 0), Self.reading(140, 90, minute: 1), Self.reading(125, 95, minute: 2)], source: Self.writer)
            let highSystolic: [String: SamplePredicate] = [Self.systolic: .uuids([uuids[4]])]
            #expect(Self.values(try Self.correlations(database, systolic: .allSources, diastolic: .allSources,
                                                      objectPredicates: highSystolic)) == [[140, 90]])
            let either: [String: SamplePredicate] = [Self.systolic: .uuids([uuids[4]]), Self.diastolic: .uuids([uuids[8]])]
            #expect(Self.values(try Self.correlations(database, systolic: .allSources, diastolic: .allSources,
                                                      objectPredicates: either)) == [[140, 90], [125, 95]])
            // A predicate on the wrong type's samples matches nothing.
            let mismatched: [String: SamplePredicate] = [Self.diastolic: .uuids([uuids[4]])]
            #expect(try Self.correlations(database, systolic: .allSources, diastolic: .allSources, objectPredicates: mismatched).isEmpty)
        }
    }
}
