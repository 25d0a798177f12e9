import Foundation
import GRDB
import GRDBSQLite
import HealthModel
import Testing

@testable import HealthStore

/// Privacy review, session 19, finding 1: a question asked right after a commit — a long-running
/// query's re-check at a wake-up (`ChangeFeedRepository.hasChanges`) and a stream's question
/// whether a visible object left (`VisibleDeletions.anyLeft`) — must not cost what the reader
/// stores outside its window. With a window scope both walked the feed's ranges, the reader's own
/// rows (and tombstones) whatever their date among them: a reader that stored and deleted 10⁶
/// samples of its own made every hidden save or deletion cost it that walk, exactly when it
/// happened. Now the reader's own rows are walked from the question's change number on
/// (`SampleSQL.laterChanges`). Counted in SQLite's virtual-machine steps, with 10 and 2,000 of
/// the reader's rows from before the window and before the question: equal.
///
/// The residual, stated: the window's rows are walked by (type, start) whatever their change
/// number — each a row the reader may see, which it can add to — and tested in the index
/// (migration v68); another source's rows outside the window are never visited
/// (`WindowRecheckHiddenRowsTests`, privacy review, session 21, finding 2).
@Suite(.timeLimit(.minutes(10))) struct RecheckCostTests {
    static let sleep = ChangeFeedRepositoryTests.sleep
    static let window = ChangeFeedWindowPlanTests.window

    @Test func aRecheckDoesNotGrowWithTheReadersRowsOutsideItsWindow() async throws {
        let few = try await Self.recheckSteps(visibleRows: 10)
        let many = try await Self.recheckSteps(visibleRows: 2_000)
        #expect(few.values.allSatisfy { $0 > 0 }, "\(few)")
        for (question, steps) in few {
            #expect(abs((many[question] ?? 0) - steps) <= 2, "\(question): \(steps) steps with 10 visible rows, \(many[question] ?? 0) with 2,000")
        }
    }

    /// The answers stay right: a visible save or deletion after the question's change number is
    /// found, a hidden one (another source's, before the window) is not.
    @Test func aRecheckStillFindsWhatTheWindowShowsAndOnlyThat() async throws {
        for visible in [false, true] {
            let writer = try DatabaseQueue()
            let database = try HealthDatabase(writer: writer)
            let other = ChangeFeedRepositoryTests.source("b")
            _ = try await database.samples.insert([ChangeFeedRepositoryTests.sample(minute: 40)], source: ChangeFeedRepositoryTests.source("a"))
            let change = try database.changeFeed.currentChange()
            let saved = try await database.samples.insert([ChangeFeedRepositoryTests.sample(minute: visible ? 50 : 5)], source: other)
            #expect(try database.changeFeed.hasChanges(of: Self.sleep, matching: nil, scope: Self.window, after: change).changed == visible)
            let beforeDeletion = try database.changeFeed.currentChange()
            _ = try await database.samples.delete(saved.map { ObjectReference(typeIdentifier: Self.sleep, uuid: $0) }, appID: other.bundleIdentifier)
            #expect(try VisibleDeletions(reader: writer).anyLeft(of: [Self.sleep: Self.window.scope], after: beforeDeletion) == visible)
        }
    }

    /// VM steps of the two questions, asked after one hidden save and one hidden deletion, in a
    /// store where the reader holds `visibleRows` samples of its own from before the window, half
    /// of them deleted again (tombstones it sees), and another source two inside the window, all
    /// from before the question.
    static func recheckSteps(visibleRows: Int) async throws -> [String: Int64] {
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer)
        let reader = ChangeFeedRepositoryTests.source("a")
        let saved = try await database.samples.insert((0..<visibleRows).map { ChangeFeedRepositoryTests.sample(minute: -($0 % 600)) },
                                                      source: reader)
        _ = try await database.samples.delete(saved.prefix(visibleRows / 2).map { ObjectReference(typeIdentifier: sleep, uuid: $0) },
                                              appID: reader.bundleIdentifier)
        _ = try await database.samples.insert([40, 41].map { ChangeFeedRepositoryTests.sample(minute: $0) }, source: ChangeFeedRepositoryTests.source("b"))
        let change = try database.changeFeed.currentChange()
        // What happened since: another source saved two samples from before the window and deleted one.
        let other = ChangeFeedRepositoryTests.source("b")
        let hidden = try await database.samples.insert([0, 1].map { ChangeFeedRepositoryTests.sample(minute: $0) }, source: other)
        _ = try await database.samples.delete([ObjectReference(typeIdentifier: sleep, uuid: hidden[0])], appID: other.bundleIdentifier)
        var steps: [String: Int64] = [:]
        var found: [Bool] = []
        steps["has changes"] = try ChangeFeedWindowCostTests.steps(writer) {
            found.append(try database.changeFeed.hasChanges(of: sleep, matching: nil, scope: window, after: change).changed)
        }
        steps["a visible object left"] = try ChangeFeedWindowCostTests.steps(writer) {
            found.append(try VisibleDeletions(reader: writer).anyLeft(of: [sleep: window.scope], after: change))
        }
        #expect(found == [false, false], "nothing the window shows happened after the question's change number")
        return steps
    }
}
