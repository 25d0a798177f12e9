import Foundation
import GRDB
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

/// The change feed over an in-memory store: order, limits, cursors, scopes and the commit hook.
@Suite(.timeLimit(.minutes(10))) struct ChangeFeedRepositoryTests {
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    static let mindful = "HKCategoryTypeIdentifierMindfulSession"
    static let own = Visibility.ownSamples(appID: "org.example.a")

    static func source(_ name: String) -> SourceRecord {
        SourceRecord(bundleIdentifier: "org.example.\(name)", name: name, version: "1")
    }

    static func sample(_ type: String = sleep, minute: Int, sync: (String, Double)? = nil) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(minute) * 60)
        var metadata: [String: MetadataValue] = [:]
        if let sync {
            metadata = [HKMetadataKeySyncIdentifier: .string(sync.0), HKMetadataKeySyncVersion: .number(sync.1)]
        }
        return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: start.addingTimeInterval(60),
                            value: .category(0), metadata: metadata)
    }

    /// Every change after `cursor`, walked `limit` at a time; returns the steps' sizes too.
    static func walk(_ database: HealthDatabase, scope: Visibility = .allSources, from cursor: ChangeCursor = .origin,
                     limit: Int) throws -> (added: [UUID], deleted: [UUID], steps: [Int], end: ChangeCursor) {
        var cursor = cursor
        var added: [UUID] = [], deleted: [UUID] = [], steps: [Int] = []
        while true {
            let batch = try database.changeFeed.changes(of: sleep, matching: nil, scope: scope, after: cursor, limit: limit)
            added += batch.added.map(\.uuid)
            deleted += batch.deleted.map(\.uuid)
            steps.append(batch.count)
            cursor = batch.cursor
            if batch.reachedEnd { return (added, deleted, steps, cursor) }
        }
    }

    @Test func additionsAndSyncReplacementsComeInChangeOrder() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let first = try await database.samples.insert([Self.sample(minute: 0, sync: ("night", 1))], source: Self.source("a"))
        let batch = try await database.samples.insert([Self.sample(minute: 1), Self.sample(minute: 2)], source: Self.source("a"))
        let replacement = try await database.samples.insert([Self.sample(minute: 0, sync: ("night", 2))], source: Self.source("a"))

        let all = try database.changeFeed.changes(of: Self.sleep, matching: nil, scope: .allSources, after: .origin, limit: 0)
        #expect(all.added.map(\.uuid) == batch + replacement)  // the replaced one is gone
        #expect(all.deleted == [DeletedObjectRecord(uuid: first[0], syncIdentity: SyncIdentity(identifier: "night", version: 1))])
        #expect(all.reachedEnd)
        #expect(all.cursor == ChangeCursor(completeThrough: 3))

        // From the anchor after the second save: only the replacement and its deletion.
        let later = try database.changeFeed.changes(of: Self.sleep, matching: nil, scope: .allSources,
                                                    after: ChangeCursor(completeThrough: 2), limit: 0)
        #expect(later.added.map(\.uuid) == replacement)
        #expect(later.deleted.map(\.uuid) == first)
    }

    @Test func aLimitCountsBothKindsAndTheCursorResumesInsideOneChange() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert([Self.sample(minute: 0, sync: ("x", 1))], source: Self.source("a"))
        // One change: a replacement (one deletion) and four additions.
        let big = try await database.samples.insert([Self.sample(minute: 0, sync: ("x", 2))] + (1...4).map { Self.sample(minute: $0) },
                                                    source: Self.source("a"))
        let whole = try Self.walk(database, limit: 0)
        for limit in 1...4 {
            let walked = try Self.walk(database, limit: limit)
            #expect(walked.added == whole.added, "limit \(limit)")
            #expect(walked.deleted == whole.deleted, "limit \(limit)")
            #expect(walked.steps.allSatisfy { $0 <= limit })
            #expect(walked.end == whole.end)
        }
        #expect(whole.added.suffix(5) == big[...])
        #expect(whole.deleted.count == 1)
    }

    @Test func aScopeOfOwnSamplesHidesOtherSourcesAdditionsAndDeletions() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let mine = try await database.samples.insert([Self.sample(minute: 0)], source: Self.source("a"))
        _ = try await database.samples.insert([Self.sample(minute: 1, sync: ("b", 1))], source: Self.source("b"))
        _ = try await database.samples.insert([Self.sample(minute: 1, sync: ("b", 2))], source: Self.source("b"))

        let seen = try Self.walk(database, scope: Self.own, limit: 1)
        #expect(seen.added == mine)
        #expect(seen.deleted.isEmpty)
        #expect(seen.steps == [1])
        // Hidden changes still move the cursor: only a sealed anchor may carry it.
        #expect(seen.end == ChangeCursor(completeThrough: 3))
    }

    @Test func observersSeeOnlyVisibleChangesMatchingThePredicate() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let before = try database.changeFeed.currentChange()
        _ = try await database.samples.insert([Self.sample(minute: 5)], source: Self.source("b"))
        let hidden = try database.changeFeed.hasChanges(of: Self.sleep, matching: nil, scope: Self.own, after: before)
        #expect(hidden.changed == false)
        #expect(hidden.through == before + 1)
        #expect(try database.changeFeed.hasChanges(of: Self.sleep, matching: nil, scope: .allSources, after: before).changed)
        let early = SamplePredicate.dateRange(start: nil, end: Date(timeIntervalSince1970: 1_700_000_000), strictStart: false, strictEnd: false)
        #expect(try database.changeFeed.hasChanges(of: Self.sleep, matching: early, scope: .allSources, after: before).changed == false)
        #expect(try database.changeFeed.hasChanges(of: Self.mindful, matching: nil, scope: .allSources, after: before).changed == false)
    }

    @Test func theCommitHookNamesTheTypesOfEachCommittedWrite() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let heard = Mutex<[CommittedChange]>([])
        database.changeFeed.onCommit { change in heard.withLock { $0.append(change) } }
        _ = try await database.samples.insert([Self.sample(minute: 0)], source: Self.source("a"))
        _ = try await database.samples.insert([Self.sample(Self.mindful, minute: 0), Self.sample(minute: 1)], source: Self.source("a"))
        try database.grants.apply(appID: "org.example.a", [])  // no objects touched: nothing to announce
        #expect(heard.withLock { $0 } == [
            CommittedChange(typeIdentifiers: [Self.sleep], change: 1),
            CommittedChange(typeIdentifiers: [Self.sleep, Self.mindful], change: 2),
        ])
    }

    @Test func sourcesAreTakenFromVisibleSamplesOnly() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert([Self.sample(minute: 0)], source: Self.source("b"))
        _ = try await database.samples.insert([Self.sample(Self.mindful, minute: 0)], source: Self.source("a"))
        #expect(try database.samples.sources(of: Self.sleep, matching: nil, scope: .allSources).map(\.bundleIdentifier) == ["org.example.b"])
        #expect(try database.samples.sources(of: Self.sleep, matching: nil, scope: Self.own).isEmpty)
        _ = try await database.samples.insert([Self.sample(minute: 3)], source: Self.source("a"))
        #expect(try database.samples.sources(of: Self.sleep, matching: nil, scope: Self.own).map(\.bundleIdentifier) == ["org.example.a"])
        let late = SamplePredicate.dateRange(start: Date(timeIntervalSince1970: 1_700_000_120), end: nil, strictStart: true, strictEnd: false)
        #expect(try database.samples.sources(of: Self.sleep, matching: late, scope: .allSources).map(\.bundleIdentifier) == ["org.example.a"])
    }
}
