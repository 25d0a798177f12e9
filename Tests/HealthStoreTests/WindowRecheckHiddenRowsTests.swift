import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Privacy review, session 21, finding 2: a window reader's wake-up check (`ChangeFeedRepository
/// .hasChanges`, with and without a predicate) and a stream's question whether a visible object
/// left (`VisibleDeletions.anyLeft`) walked every row of the type committed since their change
/// number, other apps' rows outside the window included; an app's checks take turns
/// (`CheckPool`), so its deliveries told it when another app saved or deleted many rows it may not
/// see, and roughly how many. Now every walk visits only rows the scope admits
/// (`SampleSQL.laterChanges`). Counted, not timed: SQLite's virtual-machine steps
/// (`SQLITE_STMTSTATUS_VM_STEP`) of every statement the questions run, with 0, 1,000 and 10,000
/// hidden rows (another source's, before the window) added — or deleted — after the question's
/// change number, against the twin store in which they never existed: equal, and the same answers.
/// Failed before the fix: the steps grew with the hidden rows.
@Suite(.timeLimit(.minutes(10))) struct WindowRecheckHiddenRowsTests {
    static let sleep = ChangeFeedRepositoryTests.sleep
    static let window = ChangeFeedWindowPlanTests.window

    /// What the hidden app did after the question's change number.
    enum Hidden: String, CaseIterable, Sendable {
        /// Saved rows before the window.
        case objects
        /// Deleted rows before the window that it had saved before the question.
        case deletions
    }

    struct Check: Equatable {
        var steps: [String: Int64] = [:]
        var answers: [String: Bool] = [:]
    }

    @Test(arguments: Hidden.allCases, [false, true])
    func aWindowChecksWorkIsItsTwins(hidden: Hidden, visibleChange: Bool) async throws {
        let twin = try await Self.check(hidden: hidden, rows: 0, visibleChange: visibleChange)
        #expect(twin.steps.values.allSatisfy { $0 > 0 }, "\(twin.steps)")
        #expect(twin.answers["has changes"] == visibleChange, "\(twin.answers)")
        for rows in [0, 1_000, 10_000] {
            let world = try await Self.check(hidden: hidden, rows: rows, visibleChange: visibleChange)
            #expect(world.answers == twin.answers, "\(hidden), \(rows) hidden rows: \(world.answers); the twin: \(twin.answers)")
            for (question, steps) in twin.steps.sorted(by: { $0.key < $1.key }) {
                #expect(world.steps[question] == steps,
                        "\(hidden), \(question): \(steps) VM steps in the twin, \(world.steps[question] ?? 0) with \(rows) hidden rows")
            }
        }
    }

    /// The questions' answers and VM steps in a store where the reader (source a) and another
    /// source (b) hold visible rows — the reader's own before the window, b's inside it, one of
    /// b's deleted — and, after the question's change number, `hidden` happened to `rows` of b's
    /// rows before the window; with `visibleChange`, b then saved one sample inside the window.
    static func check(hidden: Hidden, rows: Int, visibleChange: Bool) async throws -> Check {
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer)
        let own = ChangeFeedRepositoryTests.source("a"), other = ChangeFeedRepositoryTests.source("b")
        _ = try await database.samples.insert([10, 40, 41].map { ChangeFeedRepositoryTests.sample(minute: $0) }, source: own)
        let theirs = try await database.samples.insert([35, 36, 37].map { ChangeFeedRepositoryTests.sample(minute: $0) }, source: other)
        _ = try await database.samples.delete([ObjectReference(typeIdentifier: sleep, uuid: theirs[0])], appID: other.bundleIdentifier)
        let before = (0..<rows).map { ChangeFeedRepositoryTests.sample(minute: -($0 % 29)) }
        var saved: [UUID] = []
        if hidden == .deletions, rows > 0 {
            saved = try await database.samples.insert(before, source: other)
        }
        let change = try database.changeFeed.currentChange()
        if rows > 0 {
            switch hidden {
            case .objects:
                _ = try await database.samples.insert(before, source: other)
            case .deletions:
                _ = try await database.samples.delete(saved.map { ObjectReference(typeIdentifier: sleep, uuid: $0) }, appID: other.bundleIdentifier)
            }
        }
        if visibleChange {
            _ = try await database.samples.insert([ChangeFeedRepositoryTests.sample(minute: 45)], source: other)
        }
        let questions: [(String, () throws -> Bool)] = [
            ("has changes", { try database.changeFeed.hasChanges(of: sleep, matching: nil, scope: window, after: change).changed }),
            // A predicate nothing matches: every object the scope admits is a candidate.
            ("has changes matching nothing", {
                try database.changeFeed.hasChanges(of: sleep, matching: .metadata(key: "k", .exists), scope: window, after: change).changed
            }),
            ("has changes matching the visible save", {
                let start = Date(timeIntervalSince1970: 1_700_000_000 + 44 * 60)
                return try database.changeFeed.hasChanges(of: sleep, matching: .dateRange(start: start, end: nil, strictStart: true, strictEnd: false),
                                                          scope: window, after: change).changed
            }),
            ("a visible object left", { try VisibleDeletions(reader: writer).anyLeft(of: [sleep: window.scope], after: change) }),
        ]
        var check = Check()
        for (question, ask) in questions {
            var answer = false
            check.steps[question] = try ChangeFeedWindowCostTests.steps(writer) { answer = try ask() }
            check.answers[question] = answer
        }
        return check
    }
}
