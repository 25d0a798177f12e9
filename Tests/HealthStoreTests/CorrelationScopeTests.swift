import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Correlations are confined by the narrowest of their types' scopes, in SQL: the combination
/// rule itself, what a partly allowed reader sees, and the plan of the query it runs — an index
/// range over its own rows (or a window's), never a scan over every app's correlations.
@Suite(.timeLimit(.minutes(10))) struct CorrelationScopeTests {
    static let app = "org.example.reader"
    static let own = ReadScope.ownSamples(appID: app)
    static let early = Date(timeIntervalSince1970: 1_700_000_000)
    static let late = early.addingTimeInterval(3600)

    @Test(arguments: [
        ([], nil),
        ([.allSources], .allSources),
        ([.allSources, .allSources], .allSources),
        ([.allSources, own], own),
        ([own, .allSources], own),
        ([.allSources, .recentWindow(appID: app, since: early)], .recentWindow(appID: app, since: early)),
        ([.recentWindow(appID: app, since: early), .recentWindow(appID: app, since: late), .allSources],
         .recentWindow(appID: app, since: late)),
        ([.recentWindow(appID: app, since: late), own], own),
        ([own, .recentWindow(appID: app, since: late)], own),
        ([own, .ownSamples(appID: "org.example.other")], nil),
        ([.recentWindow(appID: app, since: late), .recentWindow(appID: "org.example.other", since: late)], nil),
    ] as [([ReadScope], ReadScope?)])
    func theNarrowestScopeAdmitsWhatEveryScopeAdmits(scopes: [ReadScope], expected: ReadScope?) {
        #expect(ReadScope.narrowest(scopes) == expected)
    }

    @Test func aMealIsVisibleOnlyToAReaderOfEveryDietaryType() async throws {
        try await CorrelationRepositoryTests.withStore { database in
            let energy = HKQuantityTypeIdentifier.dietaryEnergyConsumed.rawValue
            let start = Self.early
            let item = SampleRecord(uuid: UUID(), typeIdentifier: energy, startDate: start, endDate: start,
                                    value: .quantity(2000, unit: "kcal"))
            let meal = SampleRecord(uuid: UUID(), typeIdentifier: HKCorrelationTypeIdentifier.food.rawValue, startDate: start,
                                    endDate: start.addingTimeInterval(600), value: .correlation([item]))
            _ = try await database.samples.insert([meal], source: CorrelationRepositoryTests.writer)
            let dietary = CorrelationRules.memberTypes(of: HKCorrelationTypeIdentifier.food.rawValue).map(\.identifier)
            func meals(readable: Set<String>) throws -> Int {
                var found = 0
                let scopes = Dictionary(uniqueKeysWithValues: dietary.map { ($0, readable.contains($0) ? Visibility.allSources : Self.own.visibility) })
                try database.samples.queryCorrelations(CorrelationQuerySpec(typeIdentifier: HKCorrelationTypeIdentifier.food.rawValue),
                                                       objectScopes: scopes) { found += $0.count }
                return found
            }
            #expect(try meals(readable: Set(dietary)) == 1)
            // The meal holds energy only, yet a reader of energy alone does not see it: which meals
            // hold which types is decided by hidden rows, so the rule cannot depend on it.
            #expect(try meals(readable: [energy]) == 0)
        }
    }

    /// A reader allowed systolic but not diastolic pressure: its query runs on its own
    /// (type, source) range; with a window on one type, on the window's two ranges.
    @Test(arguments: [
        ("own", own, false),
        ("window", ReadScope.recentWindow(appID: app, since: early), true),
    ] as [(String, ReadScope, Bool)])
    func aPartlyAllowedReaderReadsOnlyItsRange(name: String, diastolic: ReadScope, window: Bool) async throws {
        let plan = try await Self.plan(scopes: [CorrelationRepositoryTests.systolic: .allSources,
                                                CorrelationRepositoryTests.diastolic: diastolic.visibility])
        #expect(plan.contains(where: TemporaryGrantStoreTests.searchesOneSourceRange), "\(name): \(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN o") || $0.hasPrefix("SCAN c") }, "\(name): \(plan)")
        #expect(plan.contains { $0.contains("MULTI-INDEX OR") } == window, "\(name): \(plan)")
    }

    /// EXPLAIN QUERY PLAN of the statement `queryCorrelations` really runs for blood pressure.
    static func plan(scopes: [String: Visibility]) async throws -> [String] {
        let statements = StatementLog()
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.trace { statements.append("\($0)") } }
        let database = try HealthDatabase(writer: DatabaseQueue(configuration: configuration))
        _ = try await database.samples.insert([CorrelationRepositoryTests.reading(120, 80, minute: 0)],
                                              source: SourceRecord(bundleIdentifier: app, name: "Reader", version: "1"))
        try database.samples.queryCorrelations(CorrelationQuerySpec(typeIdentifier: HKCorrelationTypeIdentifier.bloodPressure.rawValue),
                                               objectScopes: scopes) { _ in }
        guard let sql = statements.all.last(where: { $0.contains("JOIN objects c ON c.id = o.id") }) else { return ["no query ran"] }
        return try await database.writer.read { db in
            let placeholders = Array(repeating: DatabaseValue.null, count: sql.count { $0 == "?" })
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: StatementArguments(placeholders)).map { $0["detail"] as String }
        }
    }
}
