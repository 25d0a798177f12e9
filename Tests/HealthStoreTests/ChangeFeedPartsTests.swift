import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// The change feed over several types (HKAnchoredObjectQuery with `queryDescriptors:`): one feed
/// in change order across the types, one cursor for the set, `limit` counted across them, and
/// each type confined by its own visibility.
@Suite(.timeLimit(.minutes(10))) struct ChangeFeedPartsTests {
    static let sleep = ChangeFeedRepositoryTests.sleep
    static let mindful = ChangeFeedRepositoryTests.mindful
    static let own = ChangeFeedRepositoryTests.own

    static func sample(_ type: String, minute: Int, sync: (String, Double)? = nil) -> SampleRecord {
        ChangeFeedRepositoryTests.sample(type, minute: minute, sync: sync)
    }

    static func source(_ name: String) -> SourceRecord { ChangeFeedRepositoryTests.source(name) }

    static func parts(sleep sleepScope: Visibility = .allSources, mindful mindfulScope: Visibility = .allSources) -> [FeedPart] {
        [FeedPart(typeIdentifier: sleep, predicate: nil, visibility: sleepScope),
         FeedPart(typeIdentifier: mindful, predicate: nil, visibility: mindfulScope)]
    }

    /// Every change of `parts` after `cursor`, walked `limit` at a time.
    static func walk(_ database: HealthDatabase, _ parts: [FeedPart], from cursor: ChangeCursor = .origin,
                     limit: Int) throws -> (added: [UUID], deleted: [UUID], steps: [Int], end: ChangeCursor) {
        var cursor = cursor
        var added: [UUID] = [], deleted: [UUID] = [], steps: [Int] = []
        while true {
            let batch = try database.changeFeed.changes(of: parts, after: cursor, limit: limit)
            added += batch.added.map(\.uuid)
            deleted += batch.deleted.map(\.uuid)
            steps.append(batch.count)
            cursor = batch.cursor
            if batch.reachedEnd { return (added, deleted, steps, cursor) }
        }
    }

    @Test func theTypesInterleaveInChangeOrderAndALimitCountsAcrossThem() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let s1 = try await database.samples.insert([Self.sample(Self.sleep, minute: 0, sync: ("n", 1))], source: Self.source("a"))
        let m1 = try await database.samples.insert([Self.sample(Self.mindful, minute: 1), Self.sample(Self.mindful, minute: 2)],
                                                   source: Self.source("a"))
        let s2 = try await database.samples.insert([Self.sample(Self.sleep, minute: 0, sync: ("n", 2))], source: Self.source("a"))
        let m2 = try await database.samples.insert([Self.sample(Self.mindful, minute: 3)], source: Self.source("a"))

        let whole = try Self.walk(database, Self.parts(), limit: 0)
        #expect(whole.added == m1 + s2 + m2)  // s1 was replaced by s2
        #expect(whole.deleted == s1)
        #expect(whole.steps == [5])
        for limit in 1...4 {
            let walked = try Self.walk(database, Self.parts(), limit: limit)
            #expect(walked.added == whole.added, "limit \(limit)")
            #expect(walked.deleted == whole.deleted, "limit \(limit)")
            #expect(walked.steps.dropLast().allSatisfy { $0 == limit }, "limit \(limit): \(walked.steps)")
            #expect(walked.end == whole.end)
        }
        // From a cursor inside the mindful save: its second sample, then the rest of both types
        // (s1 was replaced, so the feed starts with the mindful save).
        let first = try database.changeFeed.changes(of: Self.parts(), after: .origin, limit: 1)
        #expect(first.added.map(\.uuid) == [m1[0]])
        #expect(first.deleted.isEmpty)
        let rest = try Self.walk(database, Self.parts(), from: first.cursor, limit: 0)
        #expect(rest.added == [m1[1]] + s2 + m2)
        #expect(rest.deleted == s1)
    }

    /// A type the reader may not see contributes nothing: the feed, its steps and its end equal
    /// those of a store where that type's other-source data never existed.
    @Test func eachTypeIsConfinedByItsOwnVisibility() async throws {
        func world(hidden: Bool) async throws -> (added: [String], deleted: Int, steps: [Int]) {
            let database = try HealthDatabase(writer: DatabaseQueue())
            var names: [UUID: String] = [:]
            func save(_ samples: [SampleRecord], _ source: String, _ name: String) async throws {
                for (index, uuid) in try await database.samples.insert(samples, source: Self.source(source)).enumerated() {
                    names[uuid] = "\(name)-\(index)"
                }
            }
            try await save([Self.sample(Self.sleep, minute: 0)], "a", "own sleep")
            if hidden { try await save([Self.sample(Self.sleep, minute: 1, sync: ("h", 1))], "b", "hidden sleep") }
            try await save([Self.sample(Self.mindful, minute: 2)], "b", "other mindful")
            if hidden { try await save([Self.sample(Self.sleep, minute: 1, sync: ("h", 2))], "b", "hidden sleep replaced") }
            try await save([Self.sample(Self.mindful, minute: 3), Self.sample(Self.mindful, minute: 4)], "a", "own mindful")
            // Sleep: own samples only; mindful: every source.
            let walked = try Self.walk(database, Self.parts(sleep: Self.own), limit: 2)
            return (walked.added.map { names[$0] ?? "?" }, walked.deleted.count, walked.steps)
        }
        let withHidden = try await world(hidden: true)
        let without = try await world(hidden: false)
        #expect(withHidden.added == ["own sleep-0", "other mindful-0", "own mindful-0", "own mindful-1"])
        #expect(withHidden.added == without.added)
        #expect(withHidden.deleted == 0 && without.deleted == 0)
        #expect(withHidden.steps == without.steps)
    }

    @Test func aPredicateFiltersOnlyItsOwnTypesAdditions() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let early = Self.sample(Self.sleep, minute: 0)
        let late = Self.sample(Self.sleep, minute: 100)
        let sleep = try await database.samples.insert([early, late], source: Self.source("a"))
        let mindful = try await database.samples.insert([Self.sample(Self.mindful, minute: 0)], source: Self.source("a"))
        var parts = Self.parts()
        parts[0].predicate = .dateRange(start: late.startDate, end: nil, strictStart: false, strictEnd: false)
        let batch = try database.changeFeed.changes(of: parts, after: .origin, limit: 0)
        #expect(batch.added.map(\.uuid) == [sleep[1]] + mindful)
    }

    @Test func aSetAnchorOpensOnlyForTheSameSetOfTypes() throws {
        let sealer = try HealthDatabase(writer: DatabaseQueue()).changeFeed.anchors
        let app = "org.example.reader"
        let cursor = ChangeCursor(change: 9, table: .objects, row: 3)
        let anchor = try sealer.seal(cursor, appID: app, typeIdentifiers: [Self.sleep, Self.mindful])
        #expect(anchor.count == AnchorSealer.anchorLength)
        #expect(sealer.open(anchor, appID: app, typeIdentifiers: [Self.mindful, Self.sleep]) == cursor)
        #expect(sealer.open(anchor, appID: app, typeIdentifier: Self.sleep) == nil)
        #expect(sealer.open(anchor, appID: app, typeIdentifiers: [Self.sleep, Self.mindful, "HKQuantityTypeIdentifierStepCount"]) == nil)
        #expect(sealer.open(anchor, appID: "org.example.other", typeIdentifiers: [Self.sleep, Self.mindful]) == nil)
        // A set of one type is that type: both forms of a one-type query share anchors.
        let single = try sealer.seal(cursor, appID: app, typeIdentifier: Self.sleep)
        #expect(sealer.open(single, appID: app, typeIdentifiers: [Self.sleep]) == cursor)
    }
}
