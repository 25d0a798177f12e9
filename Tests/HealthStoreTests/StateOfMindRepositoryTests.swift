import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// States of mind in the store (v18): kind, valence, labels and associations come back as saved,
/// in the app's order; deleting the sample removes every side row.
@Suite(.timeLimit(.minutes(10))) struct StateOfMindRepositoryTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let owner = SourceRecord(bundleIdentifier: "org.example.owner", name: "Owner", version: "1")

    static func state(_ value: StateOfMindValue, at offset: TimeInterval = 0) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierStateOfMind, startDate: start.addingTimeInterval(offset),
                     endDate: start.addingTimeInterval(offset), value: .stateOfMind(value))
    }

    /// One dimension at a time: no lists, many in a non-sorted order, the valence extremes.
    static let values = [
        StateOfMindValue(kind: 1, valence: 0),
        StateOfMindValue(kind: 2, valence: -1, labels: [38, 1, 17], associations: [18, 5]),
        StateOfMindValue(kind: 1, valence: 1, labels: Array(StateOfMindValue.labels).reversed(),
                         associations: Array(StateOfMindValue.associations)),
    ]

    @Test func aStateOfMindIsReadBackAsSavedInItsOrder() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert(Self.values.enumerated().map { Self.state($1, at: Double($0)) }, source: Self.owner)
        var fetched: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: HKDataTypeIdentifierStateOfMind), scope: .allSources) { fetched += $0 }
        #expect(fetched.sorted { $0.startDate < $1.startDate }.map(\.value) == Self.values.map(SampleRecord.Value.stateOfMind))
    }

    @Test func deletingAStateOfMindRemovesItsSideRows() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuids = try await database.samples.insert([Self.state(Self.values[1])], source: Self.owner)
        let deleted = try await database.samples.delete(uuids.map { ObjectReference(typeIdentifier: HKDataTypeIdentifierStateOfMind, uuid: $0) },
                                                        appID: Self.owner.bundleIdentifier)
        #expect(deleted == 1)
        let left = try await database.writer.read { db in
            try Int.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM states_of_mind) + (SELECT count(*) FROM state_of_mind_labels)
                     + (SELECT count(*) FROM state_of_mind_associations)
                """)
        }
        #expect(left == 0)
    }
}

/// Each State of Mind predicate in the store, one at a time, over three samples that differ in
/// the tested field (developer.apple.com/documentation/healthkit/hkquery/
/// predicateforstatesofmind(with:)-*, …/predicateforstatesofmind(withvalence:predicateoperatortype:)):
/// the store's SQL selects what the reference semantics (`StateOfMindTest.matches`) select.
@Suite(.timeLimit(.minutes(10))) struct StateOfMindPredicateTests {
    static let values = [
        StateOfMindValue(kind: 1, valence: -0.5, labels: [17, 7], associations: [17]),
        StateOfMindValue(kind: 2, valence: 0.25, labels: [7], associations: [5, 18]),
        StateOfMindValue(kind: 1, valence: 1, labels: [], associations: []),
    ]

    static let tests: [StateOfMindTest] = [
        .kind(1), .kind(2), .valence(.greaterThanOrEqualTo, 0.25), .valence(.lessThan, 0.25), .valence(.equalTo, 1),
        .label(7), .label(17), .label(38), .association(17), .association(18),
    ]

    @Test(arguments: tests)
    func theStoreSelectsWhatThePredicateMeans(test: StateOfMindTest) async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let records = Self.values.enumerated().map { StateOfMindRepositoryTests.state($1, at: Double($0)) }
        let uuids = try await database.samples.insert(records, source: StateOfMindRepositoryTests.owner)
        var fetched: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: HKDataTypeIdentifierStateOfMind, predicate: .stateOfMind(test)),
                                   scope: .allSources) { fetched += $0 }
        let expected = Set(zip(uuids, Self.values).filter { test.matches($0.1) }.map(\.0))
        #expect(Set(fetched.map(\.uuid)) == expected)
        #expect(!expected.isEmpty || test == .label(38), "each test but one selects something")
    }

    /// On another type a State of Mind predicate matches nothing.
    @Test func onAnotherTypeItMatchesNothing() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let steps = SampleRecord(uuid: UUID(), typeIdentifier: "HKQuantityTypeIdentifierStepCount",
                                 startDate: StateOfMindRepositoryTests.start, endDate: StateOfMindRepositoryTests.start,
                                 value: .quantity(10, unit: "count"))
        _ = try await database.samples.insert([steps], source: StateOfMindRepositoryTests.owner)
        var fetched: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: "HKQuantityTypeIdentifierStepCount",
                                                   predicate: .not(.stateOfMind(.kind(1)))),
                                   scope: .allSources) { fetched += $0 }
        #expect(fetched.count == 1)
        fetched = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: "HKQuantityTypeIdentifierStepCount",
                                                   predicate: .stateOfMind(.kind(1))),
                                   scope: .allSources) { fetched += $0 }
        #expect(fetched.isEmpty)
    }
}
