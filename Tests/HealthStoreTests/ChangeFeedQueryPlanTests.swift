import Foundation
import GRDB
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

/// Hidden changes must cost nothing to a scope that cannot see them (DESIGN.md §7.3): every
/// change-feed and source statement run for an app's own samples reaches `objects` and
/// `deleted_objects` only through an index whose prefix is (type, source), never by a scan.
@Suite(.timeLimit(.minutes(10))) struct ChangeFeedQueryPlanTests {
    static let sleep = ChangeFeedRepositoryTests.sleep
    static let own = ChangeFeedRepositoryTests.own

    /// The statements `body` runs that read objects or deleted objects, with their arguments
    /// expanded (so each can be explained or run again on its own).
    static func objectReads(_ writer: DatabaseQueue, while body: () throws -> Void) throws -> [String] {
        try StatementSteps.executed(writer, while: body).filter {
            $0.hasPrefix("SELECT") && ($0.contains("FROM objects") || $0.contains("FROM deleted_objects"))
        }
    }

    /// The plan lines that access the feed's rows (`o`, `d`); a primary-key lookup joins a row
    /// the range already admitted (a source, a device), so it is left out.
    static func tableAccesses(_ details: [String]) -> [String] {
        details.filter {
            ($0.contains(" o ") || $0.hasSuffix(" o") || $0.contains(" d ") || $0.hasSuffix(" d")) && !$0.contains("INTEGER PRIMARY KEY")
        }
    }

    /// The query plans of the statements `body` runs that read objects or deleted objects.
    static func plans(_ writer: DatabaseQueue, while body: () throws -> Void) throws -> [String: [String]] {
        let statements = try objectReads(writer, while: body)
        return try writer.read { db in
            var plans: [String: [String]] = [:]
            for sql in statements {
                plans[sql] = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] }
            }
            return plans
        }
    }

    /// One step of an EXPLAIN QUERY PLAN: its id, its parent's id (0 at the top) and its text.
    struct PlanStep: Sendable {
        let id: Int
        let parent: Int
        let detail: String
    }

    /// The plan of `sql` with its steps' tree.
    static func steps(_ db: Database, _ sql: String) throws -> [PlanStep] {
        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { PlanStep(id: $0["id"], parent: $0["parent"], detail: $0["detail"]) }
    }

    /// The statements `body` runs that read objects or deleted objects, each with its plan.
    static func explained(_ writer: DatabaseQueue, while body: () throws -> Void) throws -> [(sql: String, steps: [PlanStep])] {
        let statements = try objectReads(writer, while: body)
        return try writer.read { db in try statements.map { ($0, try steps(db, $0)) } }
    }

    @Test func ownScopeStatementsUseTheTypeAndSourceIndexes() async throws {
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer)
        for name in ["a", "b"] {
            _ = try await database.samples.insert([ChangeFeedRepositoryTests.sample(minute: 0, sync: (name, 1))],
                                                  source: ChangeFeedRepositoryTests.source(name))
            _ = try await database.samples.insert([ChangeFeedRepositoryTests.sample(minute: 0, sync: (name, 2))],
                                                  source: ChangeFeedRepositoryTests.source(name))
        }
        let plans = try Self.plans(writer) {
            _ = try database.changeFeed.changes(of: Self.sleep, matching: nil, scope: Self.own, after: .origin, limit: 2)
            _ = try database.changeFeed.hasChanges(of: Self.sleep, matching: nil, scope: Self.own, after: 0)
            _ = try database.samples.sources(of: Self.sleep, matching: nil, scope: Self.own)
        }
        #expect(plans.count == 4, "\(plans.keys)")
        for (sql, details) in plans {
            let tableAccesses = Self.tableAccesses(details)
            #expect(!tableAccesses.isEmpty, "\(sql): \(details)")
            for detail in tableAccesses {
                #expect(detail.hasPrefix("SEARCH"), "\(sql): \(detail)")
                #expect(detail.contains("by_type_source"), "\(sql): \(detail)")
            }
        }
    }
}
