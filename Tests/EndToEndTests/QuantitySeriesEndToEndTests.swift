import Foundation
import HealthModel
import Testing
import TestSupport

/// Quantity series through the whole stack (issue 15): built with HKQuantitySeriesSampleBuilder
/// in one sandboxed app and read quantity by quantity by another, under the type's read grant;
/// finished while the store is locked and merged with its quantities at unlock.
@Suite(.serialized, .timeLimit(.minutes(10))) struct QuantitySeriesEndToEndTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let start = 1_700_000_000
    static let quantities = ["12@0+60", "30@60+60", "7@300+30"]

    /// The quantities a reader sees of the writer's series, as `series query-quantities` prints them.
    static func expected(source: String) -> [String] {
        [("12.0", 0, 60), ("30.0", 60, 60), ("7.0", 300, 30)].map { value, offset, duration in
            "quantity \(value) \(Double(start + offset)) \(Double(duration)) 3 \(source)"
        } + ["ok 3"]
    }

    /// developer.apple.com/documentation/healthkit/hkquantityseriessamplequery: "access the
    /// individual HKQuantity objects added to a sample using an HKQuantitySeriesSampleBuilder".
    /// DESIGN.md §7: a reader with the type's read grant sees them; one without sees only its
    /// own samples — none — and one denied the same; both forms of the query agree.
    @Test func aSeriesIsReadQuantityByQuantityOnlyUnderTheReadGrant() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.qseries-writer")
        try await broker.set(writer, "share", Self.steps, allowed: true)
        let saved = try await broker.runApp(writer, ["series", "save-quantities", Self.steps, "count", "\(Self.start)"] + Self.quantities)
        #expect(saved.okValue?.hasSuffix(" 3 \(Double(Self.start + 330))") == true, "\(saved)")

        let reader = try await broker.installClient("org.test.qseries-reader")
        let unseen = try await broker.runApp(reader, ["series", "query-quantities", Self.steps, "count"])
        #expect(unseen.lines == ["ok 0"], "\(unseen)")
        try await broker.set(reader, "read", Self.steps, allowed: false)
        #expect(try await broker.runApp(reader, ["series", "query-quantities", Self.steps, "count", "--async"]).lines == ["ok 0"])
        try await broker.set(reader, "read", Self.steps, allowed: true)
        for form in [[], ["--async"]] {
            let read = try await broker.runApp(reader, ["series", "query-quantities", Self.steps, "count"] + form)
            #expect(read.lines == Self.expected(source: writer), "\(form): \(read)")
        }
    }

    /// DESIGN.md §7.8: while the store is locked a finished series is accepted into the pending
    /// journal, quantities included, and merged at unlock; reading fails with
    /// errorDatabaseInaccessible until then.
    @Test func aSeriesFinishedWhileLockedIsMergedWithItsQuantitiesAtUnlock() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.qseries-locked")
        try await broker.set(app, "share", Self.steps, allowed: true)
        try await broker.set(app, "read", Self.steps, allowed: true)
        #expect(try await broker.healthctl(["lock"]).status == 0)
        let saved = try await broker.runApp(app, ["series", "save-quantities", Self.steps, "count", "\(Self.start)"] + Self.quantities)
        #expect(saved.okValue?.hasSuffix(" 3 \(Double(Self.start + 330))") == true, "\(saved)")
        let locked = try await broker.runApp(app, ["series", "query-quantities", Self.steps, "count"])
        #expect(locked.errorCode == HKError.Code.errorDatabaseInaccessible.rawValue, "\(locked)")
        #expect(try await broker.healthctl(["unlock"]).status == 0)
        let read = try await broker.runApp(app, ["series", "query-quantities", Self.steps, "count"])
        #expect(read.lines == Self.expected(source: app), "\(read)")
    }

    /// healthctl shows a series as its sum with its count, and JSON lines carry its summary;
    /// `value` is the sum, Apple's `HKQuantitySample.quantity` for a cumulative series.
    @Test func healthctlShowsASeriesWithItsCountAndSummary() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.qseries-shown")
        try await broker.set(app, "share", Self.steps, allowed: true)
        let saved = try await broker.runApp(app, ["series", "save-quantities", Self.steps, "count", "\(Self.start)"] + Self.quantities)
        #expect(saved.okValue != nil, "\(saved)")
        let table = try await broker.healthctl(["samples", "stepCount"])
        #expect(table.status == 0 && table.stdout.contains("count (series of 3)"), "\(table)")
        let json = try await broker.healthctl(["export", broker.root + "/steps.jsonl", "--format", "json", "--types", "stepCount"])
        #expect(json.status == 0, "\(json)")
        let line = try String(contentsOfFile: broker.root + "/steps.jsonl", encoding: .utf8)
        #expect(line.contains(#""value":49"#) && line.contains(#""series":{"#) && line.contains(#""count":3"#)
                && line.contains(#""minimum":7"#) && line.contains(#""maximum":30"#) && line.contains(#""mostRecent":7"#), "\(line)")
    }
}
