import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Temporary grants in the store: limits persist and round-trip, expired grants read as denied,
/// the next expiry is found, and a window scope shows own samples of any date plus other
/// sources' samples from the window start on — through the index, never by scanning older rows.
@Suite(.timeLimit(.minutes(10))) struct TemporaryGrantStoreTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let app = "org.example.coach"
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func database() throws -> HealthDatabase {
        try HealthDatabase(writer: DatabaseQueue())
    }

    static func installApp(_ database: HealthDatabase) throws {
        _ = try database.apps.install(AppManifest(id: app, displayName: "Coach", executable: "/usr/bin/coach", version: "1",
                                                  readUsageDescription: "reads"))
    }

    static func sample(at offset: TimeInterval, value: Double) -> SampleRecord {
        let time = now.addingTimeInterval(offset)
        return SampleRecord(uuid: UUID(), typeIdentifier: heartRate, startDate: time, endDate: time,
                            value: .quantity(value, unit: "count/s"))
    }

    @Test func limitsAreStoredAndReadBack() throws {
        let database = try Self.database()
        try Self.installApp(database)
        let limits = GrantLimits(dataWindow: 30 * 86_400, expiry: Self.now.addingTimeInterval(8 * 3600))
        try database.grants.apply(appID: Self.app, [
            GrantDecision(Self.heartRate, .read, .authorized, limits: limits),
            GrantDecision(Self.heartRate, .share, .authorized),
        ])
        #expect(try database.grants.decisions(appID: Self.app) == [
            GrantDecision(Self.heartRate, .read, .authorized, limits: limits),
            GrantDecision(Self.heartRate, .share, .authorized),
        ])
        // Granting again without limits makes the grant permanent.
        try database.grants.apply(appID: Self.app, [GrantDecision(Self.heartRate, .read, .authorized)])
        #expect(try database.grants.grant(appID: Self.app, type: Self.heartRate, access: .read)?.limits == GrantLimits.none)
    }

    @Test func anExpiredGrantIsDeniedFromItsExpiryOn() throws {
        let database = try Self.database()
        try Self.installApp(database)
        let expiry = Self.now.addingTimeInterval(2)
        try database.grants.apply(appID: Self.app, [GrantDecision(Self.heartRate, .share, .authorized, limits: GrantLimits(expiry: expiry))])
        let decision = { (at: Date) in try database.grants.decision(appID: Self.app, type: Self.heartRate, access: .share, at: at) }
        #expect(try decision(expiry.addingTimeInterval(-0.000_001)) == .authorized)
        #expect(try decision(expiry) == .denied)
        #expect(try decision(expiry.addingTimeInterval(86_400)) == .denied)
    }

    @Test func theNextExpiryIsTheEarliestStillAhead() throws {
        let database = try Self.database()
        try Self.installApp(database)
        #expect(try database.grants.nextExpiry(after: Self.now) == nil)
        let soon = Self.now.addingTimeInterval(60), later = Self.now.addingTimeInterval(3600)
        try database.grants.apply(appID: Self.app, [
            GrantDecision(Self.heartRate, .read, .authorized, limits: GrantLimits(expiry: later)),
            GrantDecision(Self.heartRate, .share, .authorized, limits: GrantLimits(expiry: soon)),
            GrantDecision(HKQuantityTypeIdentifier.stepCount.rawValue, .read, .authorized, limits: GrantLimits(expiry: Self.now.addingTimeInterval(-5))),
        ])
        #expect(try database.grants.nextExpiry(after: Self.now) == soon)
        #expect(try database.grants.nextExpiry(after: soon) == later)
        #expect(try database.grants.nextExpiry(after: later) == nil)
    }

    @Test func aWindowShowsOwnSamplesOfAnyDateAndOthersFromTheWindowOn() async throws {
        let database = try Self.database()
        let mine = SourceRecord(bundleIdentifier: Self.app, name: "Coach", version: "1")
        let other = SourceRecord(bundleIdentifier: "org.example.watch", name: "Watch", version: "1")
        let windowStart = Self.now.addingTimeInterval(-100)
        _ = try await database.samples.insert([Self.sample(at: -1000, value: 1), Self.sample(at: -50, value: 2)], source: mine)
        _ = try await database.samples.insert([
            Self.sample(at: -1000, value: 10), Self.sample(at: -100.000_001, value: 11),
            Self.sample(at: -100, value: 12), Self.sample(at: -10, value: 13),
        ], source: other)
        var seen: [Double] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: Self.heartRate, sort: [SampleSort(.startDate, ascending: true)]),
                                   scope: .recentWindow(appID: Self.app, since: windowStart)) { batch in
            seen += batch.compactMap { if case let .quantity(value, _) = $0.value { value } else { nil } }
        }
        // 11 starts a microsecond before the window: hidden. 12 starts exactly at it: visible.
        #expect(seen == [1, 12, 2, 13])
    }

    /// A plan step that reads one source's rows of one type: a search on either (type, source, …)
    /// index — by start or by change number, the planner may take either; both hold only that
    /// source's rows in the searched range.
    static func searchesOneSourceRange(_ step: String) -> Bool {
        step.contains("USING INDEX objects_by_type_source_") && step.contains("(type_id=? AND source_id=?")
    }

    /// A plan step that scans a table of the store. `SCAN json_each` reads the predicate's own
    /// bound list (`.sources`/`.uuids` travel as one JSON text), not stored rows.
    static func scansStoredRows(_ step: String) -> Bool {
        step.hasPrefix("SCAN") && !step.hasPrefix("SCAN json_each")
    }

    /// The window condition must not make SQLite read rows outside it: for every query shape the
    /// app can send, the real query runs as a MULTI-INDEX OR over (type, source, start) and
    /// (type, start), never as one scan across every source's samples of the type.
    @Test(arguments: [
        ("no predicate", nil),
        ("date range", SamplePredicate.dateRange(start: now.addingTimeInterval(-500), end: now, strictStart: true, strictEnd: false)),
        ("lower bound only", SamplePredicate.dateRange(start: now.addingTimeInterval(-500), end: nil, strictStart: false, strictEnd: false)),
        ("sources", SamplePredicate.sources(["org.example.watch"])),
        ("source revisions", SamplePredicate.sourceRevisions([SourceRevisionMatch(bundleIdentifier: "org.example.watch", version: "2"),
                                                               SourceRevisionMatch(bundleIdentifier: "org.example.phone", version: nil)])),
        ("devices", SamplePredicate.devices([DeviceRecord(name: "Watch", manufacturer: "Apple Inc.")])),
        ("compound", SamplePredicate.or([.dateRange(start: now, end: nil, strictStart: true, strictEnd: false), .not(.sources(["x"]))])),
    ] as [(String, SamplePredicate?)])
    func aWindowQueryRunsOnTwoIndexRanges(shape: String, predicate: SamplePredicate?) async throws {
        for sort in [[SampleSort(.startDate, ascending: true)], [SampleSort(.endDate, ascending: false)]] {
            for limit in [0, 5] {
                let plan = try await Self.plan(of: SampleQuerySpec(typeIdentifier: Self.heartRate, predicate: predicate, sort: sort, limit: limit),
                                               scope: .recentWindow(appID: Self.app, since: Self.now))
                #expect(plan.contains { $0.contains("MULTI-INDEX OR") }, "\(shape): \(plan)")
                #expect(plan.contains(where: Self.searchesOneSourceRange), "\(shape): \(plan)")
                #expect(plan.contains { $0.contains("objects_by_type_start (type_id=? AND start_us>?") }, "\(shape): \(plan)")
                #expect(!plan.contains(where: Self.scansStoredRows), "\(shape): \(plan)")
            }
        }
    }

    /// The same guarantee for a denied (or never-asked) read: every shape runs on the app's own
    /// (type, source) range, never on a range that also holds other sources' samples.
    @Test(arguments: [
        nil,
        SamplePredicate.dateRange(start: now.addingTimeInterval(-500), end: now, strictStart: true, strictEnd: false),
        SamplePredicate.sources(["org.example.watch"]),
        SamplePredicate.sourceRevisions([SourceRevisionMatch(bundleIdentifier: "org.example.watch", version: .some(nil))]),
    ] as [SamplePredicate?])
    func anOwnSamplesQueryRunsOnTheAppsOwnRange(predicate: SamplePredicate?) async throws {
        for sort in [[SampleSort(.startDate, ascending: true)], [SampleSort(.endDate, ascending: false)]] {
            let plan = try await Self.plan(of: SampleQuerySpec(typeIdentifier: Self.heartRate, predicate: predicate, sort: sort, limit: 5),
                                           scope: .ownSamples(appID: Self.app))
            #expect(plan.contains(where: Self.searchesOneSourceRange), "\(plan)")
            #expect(!plan.contains { $0.contains("objects_by_type_start") || Self.scansStoredRows($0) }, "\(plan)")
        }
    }

    /// EXPLAIN QUERY PLAN of the statement `SampleRepository.query` really runs for `spec`.
    static func plan(of spec: SampleQuerySpec, scope: Visibility) async throws -> [String] {
        let statements = StatementLog()
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.trace { statements.append("\($0)") } }
        let database = try HealthDatabase(writer: DatabaseQueue(configuration: configuration))
        _ = try await database.samples.insert([sample(at: 0, value: 1)], source: SourceRecord(bundleIdentifier: app, name: "Coach", version: "1"))
        try database.samples.query(spec, scope: scope) { _ in }
        guard let sql = statements.all.last(where: { $0.contains("FROM objects o") }) else { return ["no query ran"] }
        return try await database.writer.read { db in
            // The plan does not depend on the bound values (no stat4), so NULLs stand in for them.
            let placeholders = Array(repeating: DatabaseValue.null, count: sql.count { $0 == "?" })
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: StatementArguments(placeholders)).map { $0["detail"] as String }
        }
    }
}

/// Statements a traced connection ran, in order.
final class StatementLog: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []

    func append(_ statement: String) { lock.withLock { statements.append(statement) } }
    var all: [String] { lock.withLock { statements } }
}
