import Foundation
import GRDB
import GRDBSQLite
import HealthModel
import Testing

@testable import HealthStore

/// Issue 11, class 2, counted rather than planned: the work SQLite does for a window-scoped
/// change feed — its virtual-machine steps (`SQLITE_STMTSTATUS_VM_STEP`), which grow with every
/// row an index walk visits — is the same whether 0 or thousands of hidden rows (other sources'
/// samples from before the window, added and deleted after the app's cursor) exist.
@Suite(.timeLimit(.minutes(10))) struct ChangeFeedWindowCostTests {
    static let sleep = ChangeFeedRepositoryTests.sleep
    static let window = ChangeFeedWindowPlanTests.window

    @Test func feedWorkDoesNotGrowWithHiddenRows() async throws {
        let alone = try await Self.feedSteps(hiddenRows: 0)
        let some = try await Self.feedSteps(hiddenRows: 500)
        let many = try await Self.feedSteps(hiddenRows: 4_000)
        #expect(alone.values.allSatisfy { $0 > 0 }, "\(alone)")
        // Eight times the hidden rows, not one step more.
        #expect(some == many, "VM steps per call, 500 hidden rows: \(some); 4,000: \(many)")
        // Against none at all, a step for finding an index range empty that is not (the hidden
        // rows lie outside it): a constant, whatever their number.
        for (call, steps) in alone {
            #expect(abs((many[call] ?? 0) - steps) <= 2, "\(call): \(steps) steps alone, \(many[call] ?? 0) with 4,000 hidden rows")
        }
    }

    /// VM steps of the feed's statements for: a read from the origin (a nil anchor) and a read from
    /// a cursor taken before the hidden saves (a current anchor). The observer's check is no feed
    /// read from an old anchor: it walks what was committed since its last check, hidden rows
    /// included, so that its cost never follows the rows the reader can see (`RecheckCostTests`).
    static func feedSteps(hiddenRows: Int) async throws -> [String: Int64] {
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer)
        let own = ChangeFeedRepositoryTests.source("a"), other = ChangeFeedRepositoryTests.source("b")
        // Visible: the app's own samples (one before the window) and another source's in the window.
        _ = try await database.samples.insert([10, 40, 41].map { ChangeFeedRepositoryTests.sample(minute: $0) }, source: own)
        _ = try await database.samples.insert([35, 36].map { ChangeFeedRepositoryTests.sample(minute: $0) }, source: other)
        let cursor = try database.changeFeed.changes(of: sleep, matching: nil, scope: window, after: .origin, limit: 0).cursor
        // Hidden: another source's samples from before the window, saved after the cursor; half
        // of them deleted again, so both tables hold hidden rows after it.
        if hiddenRows > 0 {
            let hidden = try await database.samples.insert((0..<hiddenRows).map { ChangeFeedRepositoryTests.sample(minute: -$0 % 29) },
                                                           source: other)
            _ = try await database.samples.delete(hidden.prefix(hiddenRows / 2).map { ObjectReference(typeIdentifier: sleep, uuid: $0) },
                                                  appID: other.bundleIdentifier)
        }
        // A visible change after the hidden ones, so every read has something to find.
        _ = try await database.samples.insert([ChangeFeedRepositoryTests.sample(minute: 42)], source: own)
        var steps: [String: Int64] = [:]
        steps["from the origin"] = try Self.steps(writer) {
            _ = try database.changeFeed.changes(of: sleep, matching: nil, scope: window, after: .origin, limit: 0)
        }
        steps["from a cursor"] = try Self.steps(writer) {
            _ = try database.changeFeed.changes(of: sleep, matching: nil, scope: window, after: cursor, limit: 2)
        }
        return steps
    }

    /// The VM steps of the statements reading objects or deleted objects that `body` runs, each
    /// run again to completion on its own statement to read the counter.
    static func steps(_ writer: DatabaseQueue, while body: () throws -> Void) throws -> Int64 {
        try StatementSteps.vmSteps(of: ChangeFeedQueryPlanTests.objectReads(writer, while: body), in: writer)
    }
}
