import Foundation
import GRDB
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

/// The group commit waits for the siblings it expects back (`CommitSiblings`), so that writers
/// saving in a loop share full groups instead of alternating halves, and never waits for a lone
/// writer. Real writer threads (each blocking in `submitBlocking`, as a connection's reader thread
/// does in healthd) on a real encrypted store; every figure is counted at the queue, none is timed.
/// Each queue here has a long sibling wait (not the default few ms) so that a loaded machine's
/// scheduling delays cannot split a group: what is checked is the policy, not the machine.
@Suite(.timeLimit(.minutes(10))) struct GroupCommitSiblingTests {
    typealias Fixture = GroupCommitTests

    /// A wait of exactly `duration` for a missing sibling, whatever the commits take.
    static func waitFor(_ duration: Duration) -> GroupCommitQueue.SiblingWait {
        GroupCommitQueue.SiblingWait(least: duration, most: duration)
    }

    /// `writers` threads, each making `saves` one-sample saves in a loop through `queue`, all
    /// started at once; returns once every save is acknowledged, with how many were.
    static func saveInLoops(writers: Int, saves: Int, through queue: GroupCommitQueue) async -> Int {
        await withTaskGroup(of: Int.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    await GroupCommitBlockingTests.onOwnThread {
                        (0..<saves).reduce(0) { acknowledged, index in
                            let sample = Fixture.sample(writer * 10_000 + index)
                            let uuids = try? queue.submitBlocking { db in
                                try SampleRepository.write([sample], source: Fixture.source(writer), db)
                            }
                            return acknowledged + (uuids?.count ?? 0)
                        }
                    }
                }
            }
            return await group.reduce(0, +)
        }
    }

    /// With N writers saving in a loop, a commit holds nearly all N: the mean group is at least
    /// three quarters of N. Without the wait for siblings the groups alternate between the saves
    /// that queued during the last commit and the ones it just answered: about N/2 each.
    @Test(arguments: [8, 16]) func writersInALoopShareFullGroups(writers: Int) async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        _ = try HealthDatabase(writer: store.writer)  // the schema
        let queue = GroupCommitQueue(writer: store.writer, siblingWait: Self.waitFor(.milliseconds(500)))
        let saves = 20
        let acknowledged = await Self.saveInLoops(writers: writers, saves: saves, through: queue)
        #expect(acknowledged == writers * saves)
        let statistics = queue.statistics
        #expect(statistics.committedSaves == writers * saves)
        let meanGroup = Double(statistics.committedSaves) / Double(statistics.commits)
        #expect(meanGroup >= 0.75 * Double(writers), "mean group \(meanGroup) of \(writers) writers: \(statistics)")
        #expect(statistics.largestGroup == writers)
    }

    /// A lone writer is never its own missing sibling: none of its commits waits, however long
    /// the queue would wait for a sibling.
    @Test func aLoneWriterNeverWaits() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        _ = try HealthDatabase(writer: store.writer)
        let queue = GroupCommitQueue(writer: store.writer, siblingWait: Self.waitFor(.milliseconds(300)))
        let saves = 30
        #expect(await Self.saveInLoops(writers: 1, saves: saves, through: queue) == saves)
        let statistics = queue.statistics
        #expect(statistics.commits == saves)
        #expect(statistics.delayedCommits == 0)
        #expect(statistics.siblingTimeouts == 0)
    }

    /// A writer that stops is waited for once at most: the next writer's first save may wait
    /// for it (it was answered moments ago), and after that the stopped writer is not expected.
    @Test func aWriterThatStoppedIsWaitedForOnceAtMost() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        _ = try HealthDatabase(writer: store.writer)
        let queue = GroupCommitQueue(writer: store.writer, siblingWait: Self.waitFor(.milliseconds(300)))
        #expect(await Self.saveInLoops(writers: 1, saves: 1, through: queue) == 1)
        #expect(await Self.saveInLoops(writers: 1, saves: 10, through: queue) == 10)
        let statistics = queue.statistics
        #expect(statistics.commits == 11)
        #expect(statistics.delayedCommits <= 1)
        #expect(statistics.siblingTimeouts <= 1)
    }

    /// Saves from the cooperative pool (`submit`) have no thread to come back: a group never
    /// waits for one, and they still join the blocking writers' groups.
    @Test func asyncSavesAreNeverWaitedFor() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        _ = try HealthDatabase(writer: store.writer)
        let queue = GroupCommitQueue(writer: store.writer, siblingWait: Self.waitFor(.seconds(30)))
        for index in 0..<20 {
            _ = try await queue.submit { db in
                try SampleRepository.write([Fixture.sample(index)], source: Fixture.source(0), db)
            }
        }
        let statistics = queue.statistics
        #expect(statistics.commits == 20 && statistics.delayedCommits == 0)
    }
}
