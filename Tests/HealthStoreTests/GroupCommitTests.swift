import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Group commit on a real encrypted store: concurrent saves share commits, every acknowledged
/// save is there (also after reopening), and one save's failure stays its own.
@Suite(.timeLimit(.minutes(10))) struct GroupCommitTests {
    static let stepType = "HKQuantityTypeIdentifierStepCount"

    static func sample(_ index: Int, valid: Bool = true) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
        // start after end breaks the objects table's CHECK: a save the store itself refuses.
        return SampleRecord(
            uuid: UUID(), typeIdentifier: stepType, startDate: start,
            endDate: valid ? start.addingTimeInterval(30) : start.addingTimeInterval(-30),
            value: .quantity(Double(index), unit: "count"))
    }

    static func source(_ app: Int) -> SourceRecord {
        SourceRecord(bundleIdentifier: "org.example.app\(app)", name: "App \(app)", version: "1")
    }

    /// Checks the outcomes of saves numbered 0… where every third (0, 3, 6 …) carried one bad
    /// sample: exactly those failed, each with the constraint error; returns what the others were
    /// acknowledged with.
    static func acknowledgedWhereOnlyEveryThirdSaveFailed(_ outcomes: [Int: Result<[UUID], any Error>]) -> Set<UUID> {
        var acknowledged: Set<UUID> = []
        for (index, outcome) in outcomes {
            switch outcome {
            case let .success(uuids):
                #expect(index % 3 != 0)
                acknowledged.formUnion(uuids)
            case let .failure(error):
                #expect(index % 3 == 0)
                #expect((error as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT)
            }
        }
        return acknowledged
    }

    static func storedUUIDs(_ database: HealthDatabase) throws -> Set<UUID> {
        var found: Set<UUID> = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: stepType), scope: .allSources) { batch in
            found.formUnion(batch.map(\.uuid))
        }
        return found
    }

    /// Holds the store's single writer connection until `release()`, so that saves submitted
    /// meanwhile pile up and must be committed together: batching shown without any timing.
    final class WriterHold: @unchecked Sendable {
        private let held = DispatchSemaphore(value: 0)
        private let released = DispatchSemaphore(value: 0)

        init(_ writer: any DatabaseWriter) {
            let thread = Thread { [held, released] in
                try? writer.writeWithoutTransaction { _ in
                    held.signal()
                    released.wait()
                }
            }
            thread.start()
            held.wait()
        }

        func release() { released.signal() }
    }

    static func waitUntilSubmitted(_ count: Int, _ database: HealthDatabase) async throws {
        while database.samples.commitStatistics.submitted < count {
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    @Test func concurrentSavesShareCommitsAndAllArePresentAfterReopening() async throws {
        let directory = TemporaryDirectory()
        let apps = 16, savesPerApp = 12
        var acknowledged: Set<UUID> = []
        var statistics = GroupCommitStatistics()
        do {
            let store = try EncryptedDatabase.open(directory: directory.path)
            let database = try HealthDatabase(writer: store.writer)
            let hold = WriterHold(store.writer)
            acknowledged = try await withThrowingTaskGroup(of: [UUID].self) { group in
                for app in 0..<apps {
                    group.addTask {
                        var uuids: [UUID] = []
                        for save in 0..<savesPerApp {
                            uuids += try await database.samples.insert([Self.sample(app * 100 + save)], source: Self.source(app))
                        }
                        return uuids
                    }
                }
                // Every app has its first save queued behind the held writer.
                try await Self.waitUntilSubmitted(apps, database)
                hold.release()
                return try await group.reduce(into: Set<UUID>()) { $0.formUnion($1) }
            }
            statistics = database.samples.commitStatistics
            #expect(try Self.storedUUIDs(database) == acknowledged)
            try store.close()
        }
        #expect(acknowledged.count == apps * savesPerApp)
        #expect(statistics.committedSaves == apps * savesPerApp)
        // The 16 first saves alone needed at most two commits (the one that was taken before
        // the rest queued, and the rest); each later round is shared again.
        #expect(statistics.commits < statistics.committedSaves)
        #expect(statistics.commits <= 2 + (savesPerApp - 1) * apps)

        let reopened = try EncryptedDatabase.open(directory: directory.path)
        #expect(try Self.storedUUIDs(HealthDatabase(writer: reopened.writer)) == acknowledged)
    }

    @Test func savesQueuedTogetherCommitTogether() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        let hold = WriterHold(store.writer)
        let saves = 40
        let results = try await withThrowingTaskGroup(of: [UUID].self) { group in
            for index in 0..<saves {
                group.addTask { try await database.samples.insert([Self.sample(index)], source: Self.source(index % 4)) }
            }
            try await Self.waitUntilSubmitted(saves, database)
            hold.release()
            return try await group.reduce(into: [UUID]()) { $0 += $1 }
        }
        let statistics = database.samples.commitStatistics
        #expect(results.count == saves)
        #expect(statistics.committedSaves == saves)
        #expect(statistics.commits <= 2)
    }

    @Test func aFailingSaveFailsAloneAndAtomically() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        let hold = WriterHold(store.writer)
        let saves = 24
        // Every third save carries one bad sample among good ones: the whole save must fail,
        // and only it.
        let outcomes = await withTaskGroup(of: (Int, Result<[UUID], any Error>).self) { group in
            for index in 0..<saves {
                let records = (0..<3).map { Self.sample(index * 10 + $0, valid: index % 3 != 0 || $0 != 2) }
                group.addTask {
                    do {
                        return (index, .success(try await database.samples.insert(records, source: Self.source(index))))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            try? await Self.waitUntilSubmitted(saves, database)
            hold.release()
            return await group.reduce(into: [Int: Result<[UUID], any Error>]()) { $0[$1.0] = $1.1 }
        }
        let acknowledged = Self.acknowledgedWhereOnlyEveryThirdSaveFailed(outcomes)
        #expect(acknowledged.count == (saves - saves / 3) * 3)
        #expect(try Self.storedUUIDs(database) == acknowledged)
        #expect(try database.samples.count() == acknowledged.count)
        #expect(database.samples.commitStatistics.commits <= 2)
    }
}
