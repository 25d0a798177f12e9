import Foundation
import GRDB
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

/// `submitBlocking`, the group-commit entry for threads that may block (a connection's reader
/// thread in healthd): a lone save is committed on its caller's own thread, with no hand-off;
/// blocking saves that overlap a commit share the next one with the async saves, each still in
/// its own savepoint; and every acknowledged save is there after reopening.
@Suite(.timeLimit(.minutes(10))) struct GroupCommitBlockingTests {
    typealias Fixture = GroupCommitTests

    /// Runs `body` on a new thread of its own (not the cooperative pool's, which must never block
    /// on the writer) and returns its result once it is done.
    static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    @Test func aLoneBlockingSaveCommitsOnItsCallersThread() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        // Each save's work notes whether it ran on the thread that submitted it.
        let ranOnCaller = await Self.onOwnThread { () -> [Bool] in
            (0..<5).map { index in
                let caller = pthread_self()
                let sameThread = ThreadCheck()
                _ = try? database.samples.commits.submitBlocking { db in
                    sameThread.note(pthread_equal(pthread_self(), caller) != 0)
                    return try SampleRepository.write([Fixture.sample(index)], source: Fixture.source(0), db)
                }
                return sameThread.value
            }
        }
        #expect(ranOnCaller == Array(repeating: true, count: 5))
        let statistics = database.samples.commitStatistics
        #expect(statistics.committedSaves == 5 && statistics.commits == 5)
        #expect(try Fixture.storedUUIDs(database).count == 5)
    }

    @Test func blockingAndAsyncSavesQueuedTogetherCommitTogether() async throws {
        let directory = TemporaryDirectory()
        let blocking = 8, async = 8
        var acknowledged: Set<UUID> = []
        do {
            let store = try EncryptedDatabase.open(directory: directory.path)
            let database = try HealthDatabase(writer: store.writer)
            let hold = Fixture.WriterHold(store.writer)
            acknowledged = try await withThrowingTaskGroup(of: [UUID].self) { group in
                for index in 0..<blocking {
                    group.addTask {
                        try await Self.onOwnThread {
                            Result { try database.samples.insertBlocking([Fixture.sample(index)], source: Fixture.source(index % 4)) }
                        }.get()
                    }
                }
                for index in blocking..<(blocking + async) {
                    group.addTask { try await database.samples.insert([Fixture.sample(index)], source: Fixture.source(index % 4)) }
                }
                try await Fixture.waitUntilSubmitted(blocking + async, database)
                hold.release()
                return try await group.reduce(into: Set<UUID>()) { $0.formUnion($1) }
            }
            let statistics = database.samples.commitStatistics
            #expect(statistics.committedSaves == blocking + async)
            // The save that took the lead before the others queued, then all the rest together.
            #expect(statistics.commits <= 2)
            #expect(try Fixture.storedUUIDs(database) == acknowledged)
            try store.close()
        }
        #expect(acknowledged.count == blocking + async)
        let reopened = try EncryptedDatabase.open(directory: directory.path)
        #expect(try Fixture.storedUUIDs(HealthDatabase(writer: reopened.writer)) == acknowledged)
    }

    @Test func aFailingBlockingSaveFailsAloneAndAtomically() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        let hold = Fixture.WriterHold(store.writer)
        let saves = 12
        // Every third save carries one bad sample among good ones: it fails whole, and alone.
        let outcomes = await withTaskGroup(of: (Int, Result<[UUID], any Error>).self) { group in
            for index in 0..<saves {
                let records = (0..<3).map { Fixture.sample(index * 10 + $0, valid: index % 3 != 0 || $0 != 2) }
                group.addTask {
                    (index, await Self.onOwnThread {
                        Result { try database.samples.insertBlocking(records, source: Fixture.source(index)) }
                    })
                }
            }
            try? await Fixture.waitUntilSubmitted(saves, database)
            hold.release()
            return await group.reduce(into: [Int: Result<[UUID], any Error>]()) { $0[$1.0] = $1.1 }
        }
        let acknowledged = Fixture.acknowledgedWhereOnlyEveryThirdSaveFailed(outcomes)
        #expect(acknowledged.count == (saves - saves / 3) * 3)
        #expect(try Fixture.storedUUIDs(database) == acknowledged)
        #expect(database.samples.commitStatistics.commits <= 2)
    }

    /// A lone blocking save that fails (its own transaction, rolled back) leaves the queue free:
    /// the next save, blocking or async, commits as usual.
    @Test func theQueueGoesOnAfterALoneBlockingSaveFails() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        let failed = await Self.onOwnThread {
            Result { try database.samples.insertBlocking([Fixture.sample(0, valid: false)], source: Fixture.source(0)) }
        }
        #expect((failed.failure as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT)
        let next = try await Self.onOwnThread {
            Result { try database.samples.insertBlocking([Fixture.sample(1)], source: Fixture.source(0)) }
        }.get()
        let after = try await database.samples.insert([Fixture.sample(2)], source: Fixture.source(0))
        #expect(try Fixture.storedUUIDs(database) == Set(next + after))
        #expect(database.samples.commitStatistics.failedCommits == 0)
    }
}

/// Whether a save's work ran on the thread that submitted it.
private final class ThreadCheck: Sendable {
    private let ranOnCaller = Mutex(false)
    func note(_ onCaller: Bool) { ranOnCaller.withLock { $0 = onCaller } }
    var value: Bool { ranOnCaller.withLock { $0 } }
}

extension Result {
    fileprivate var failure: Failure? {
        if case let .failure(error) = self { error } else { nil }
    }
}
