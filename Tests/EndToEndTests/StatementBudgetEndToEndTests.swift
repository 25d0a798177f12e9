import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// An app's predicate cannot make healthd compute without bound (s19 availability review,
/// finding 1), through a real healthd: one statement of an app's call may use
/// `--statement-cpu-budget-ms` of CPU time without handing part of its answer; past it the call
/// ends RESOURCE_EXHAUSTED naming what to narrow, and the work stops — online and when unlock
/// merges what the app journaled while locked.
///
/// The attacker (this process, speaking the protocol: `RawApp`) saved 40 steps samples with the
/// largest metadata a save allows and sends the costliest predicate healthd decodes (32 metadata
/// comparisons). A predicate that matches every row makes the outcome visible without timing:
/// before the budget, the deletion deleted every sample; with it, none. One healthd for the suite.
@Suite(.timeLimit(.minutes(10)), .serialized) struct StatementBudgetEndToEndTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let attacker = "org.test.budget-attacker"
    static let rows = 40
    /// Below what the expensive statement over `rows` costs (~0.35 s of CPU in a debug build).
    static let budgetMilliseconds = 100

    struct World: Sendable {
        let broker: BrokerProcess
        let app: RawApp
    }

    static let world = Task { () throws -> World in
        let broker = try BrokerProcess(extraArguments: ["--statement-cpu-budget-ms", "\(budgetMilliseconds)"])
        let app = try await RawApp.install(attacker, on: broker, grants: [("share", steps), ("read", steps)])
        let filler = String(repeating: "x", count: 4_000)
        let metadata = Dictionary(uniqueKeysWithValues: (0..<64).map { ("org.test.key\($0)", MetadataValue.string(filler)) })
        for first in stride(from: 0, to: rows, by: 8) {
            _ = try await app.save((first..<first + 8).map { index in
                let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
                return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(30),
                                    value: .quantity(Double(index), unit: "count"), metadata: metadata)
            })
        }
        return World(broker: broker, app: app)
    }

    /// Every metadata comparison healthd decodes; with `matching`, the last one holds on every row.
    static func expensive(matching: Bool) -> SamplePredicate {
        let absent = (0..<SamplePredicate.maximumMetadataComparisons - 1).map {
            SamplePredicate.metadata(key: "org.test.absent\($0)", .compare(.equalTo, .string("nothing")))
        }
        return .or(absent + [.metadata(key: matching ? "org.test.key63" : "org.test.absent-last", .exists)])
    }

    static func count(_ app: RawApp) async throws -> Int {
        try await app.query(SampleQuerySpec(typeIdentifier: steps)).count
    }

    static func expectOverBudget(_ status: RPCStatus?, _ context: String) {
        #expect(status?.code == .resourceExhausted, "\(context): \(String(describing: status))")
        #expect(status?.healthKitCode == .errorInvalidArgument, "\(context): \(String(describing: status))")
        #expect(status?.message.contains("narrow the predicate") == true, "\(context): \(String(describing: status))")
    }

    @Test func aQueryThatComputesPastTheBudgetWithoutAnsweringEnds() async throws {
        let world = try await Self.world.value
        do {
            let found = try await world.app.query(SampleQuerySpec(typeIdentifier: Self.steps, predicate: Self.expensive(matching: false)))
            Issue.record("the expensive query ran to its end (\(found.count) samples)")
        } catch let status as RPCStatus {
            Self.expectOverBudget(status, "query")
        }
        // A cheap query still answers whole.
        #expect(try await Self.count(world.app) == Self.rows)
        #expect(world.broker.isRunning)
    }

    @Test func aDeletionByAnExpensivePredicateEndsAndDeletesNothing() async throws {
        let world = try await Self.world.value
        let deletion = MatchingDeletion(typeIdentifier: Self.steps, predicate: Self.expensive(matching: true))
        Self.expectOverBudget(await world.app.failure(.deleteMatching, deletion), "deletion")
        #expect(try await Self.count(world.app) == Self.rows)
    }

    /// Journaled while locked, the same deletions are bounded at unlock: the merge gives each
    /// app's deletions by predicate the statement budget (twice it in all), so unlock neither
    /// runs them for as long as the app chose nor deletes what the budget stopped.
    @Test func journaledExpensiveDeletionsDoNotHoldTheUnlock() async throws {
        let world = try await Self.world.value
        let lock = try await world.broker.healthctl(["lock"])
        try #require(lock.status == 0, "\(lock)")
        let deletion = MatchingDeletion(typeIdentifier: Self.steps, predicate: Self.expensive(matching: true))
        for _ in 0..<4 {
            #expect(await world.app.failure(.deleteMatching, deletion) == nil)  // journaled, answered 0
        }
        let unlock = try await world.broker.healthctl(["unlock"])
        #expect(unlock.status == 0, "\(unlock)")
        #expect(try await Self.count(world.app) == Self.rows)
        #expect(world.broker.log.contains("past their merge budget"), "\(world.broker.log.suffix(2_000))")
    }
}
