import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Issue 11, class 2: with a window-scoped grant (`ReadScope.recentWindow`) the change feed
/// must answer visibility from indexes too — one range of the app's own rows by (type, source),
/// one of every source's rows by (type, start) from the window on — never by walking the type's
/// changes after the cursor and dropping the hidden ones afterwards. (A re-check right after a
/// commit — `hasChanges`, `VisibleDeletions` — walks the (type, change) index from its last check
/// on instead: `RecheckCostTests` says why.)
@Suite(.timeLimit(.minutes(10))) struct ChangeFeedWindowPlanTests {
    static let sleep = ChangeFeedRepositoryTests.sleep
    static let since = Date(timeIntervalSince1970: 1_700_000_000 + 30 * 60)
    static let window = Visibility.recentWindow(appID: "org.example.a", since: since)

    /// Predicates whose own conditions could offer the planner another range over the type.
    static let predicates: [SamplePredicate?] = [
        nil,
        .dateRange(start: nil, end: Date(timeIntervalSince1970: 1_700_000_000 + 20 * 60), strictStart: false, strictEnd: false),
        .dateRange(start: Date(timeIntervalSince1970: 1_600_000_000), end: nil, strictStart: true, strictEnd: false),
        .workout(UUID()),
        .metadata(key: "k", .exists),
        .not(.sources(["org.example.b"])),
        .sourceRevisions([SourceRevisionMatch(bundleIdentifier: "org.example.b", version: nil)]),
        .devices([DeviceRecord(name: "Watch")]),
    ]

    @Test(arguments: 0..<8)
    func windowStatementsSearchOnlyTheOwnRangeAndTheWindow(predicate index: Int) async throws {
        let predicate = Self.predicates[index]
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer)
        for name in ["a", "b"] {
            _ = try await database.samples.insert([ChangeFeedRepositoryTests.sample(minute: 0, sync: (name, 1))],
                                                  source: ChangeFeedRepositoryTests.source(name))
            _ = try await database.samples.insert([ChangeFeedRepositoryTests.sample(minute: 0, sync: (name, 2))],
                                                  source: ChangeFeedRepositoryTests.source(name))
        }
        let first = try database.changeFeed.changes(of: Self.sleep, matching: nil, scope: .allSources, after: .origin, limit: 1)
        let plans = try ChangeFeedQueryPlanTests.plans(writer) {
            _ = try database.changeFeed.changes(of: Self.sleep, matching: predicate, scope: Self.window, after: .origin, limit: 2)
            _ = try database.changeFeed.changes(of: Self.sleep, matching: predicate, scope: Self.window, after: first.cursor, limit: 2)
        }
        #expect(plans.count >= 4, "\(plans.keys)")
        for (sql, details) in plans {
            // `w`, the workout a predicate names, is found by its UUID and is not a feed row.
            let tableAccesses = ChangeFeedQueryPlanTests.tableAccesses(details)
            #expect(!tableAccesses.isEmpty, "\(sql): \(details)")
            for detail in tableAccesses {
                // Each access is a SEARCH bounded either by the app's own source or by the
                // window's start: a range that holds no hidden row.
                #expect(detail.hasPrefix("SEARCH"), "\(sql): \(detail)")
                #expect(detail.contains("source_id=?") || detail.contains("start_us>?"), "\(sql): \(detail)")
            }
            #expect(details.contains { $0.contains("MULTI-INDEX OR") }, "\(sql): \(details)")
        }
    }
}
