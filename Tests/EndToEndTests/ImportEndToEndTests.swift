import Foundation
import Testing
import TestSupport

/// `healthctl import` through a real healthd: real exports (../shared/fixtures/apple-health)
/// become samples under their original sources, validated as an app's saves, visible to apps by
/// read permission like any other source's, and a second import adds nothing.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ImportEndToEndTests {
    static let fixtures = SharedFixtures.appleHealth
    static let steps = "HKQuantityTypeIdentifierStepCount"

    func summaryLine(_ result: ProcessResult) -> String {
        result.stdout.split(separator: "\n").last.map(String.init) ?? ""
    }

    @Test func anExportIsImportedOnceUnderItsSourcesAndAppsSeeItByReadPermission() async throws {
        let broker = try BrokerProcess()
        let export = Self.fixtures.appendingPathComponent("tdda-applehealthdata/testdata/export6s3sample.xml").path

        let first = try await broker.healthctl(["import", export])
        #expect(first.status == 0, "\(first)\n\(broker.log)")
        // 10 step counts, 5 distances and a workout; the two activity summaries are not samples.
        #expect(summaryLine(first) == "16 records read; samples and routes: 16 imported, 0 already there, 0 refused.", "\(first)")
        #expect(first.stdout.contains("not imported: 2 activity summaries"))
        #expect(first.stdout.contains("StepCount") || first.stdout.contains("Step Count"), "\(first.stdout)")

        let again = try await broker.healthctl(["import", export])
        #expect(again.status == 0, "\(again)")
        #expect(summaryLine(again) == "16 records read; samples and routes: 0 imported, 16 already there, 0 refused.", "\(again)")

        let reader = try await broker.installClient("org.test.import-reader")
        try await broker.set(reader, "read", Self.steps, allowed: true)
        let seen = try await broker.runApp(reader, ["query", Self.steps])
        #expect(seen.okValue == "10", "\(seen)")
        #expect(seen.lines.filter { $0.hasPrefix("sample ") }.allSatisfy { $0.hasSuffix(" @import/Apple Health/Health") }, "\(seen)")

        let denied = try await broker.installClient("org.test.import-denied")
        try await broker.set(denied, "read", Self.steps, allowed: false)
        #expect(try await broker.runApp(denied, ["query", Self.steps]).okValue == "0")

        // The access log records the import (who: the manager; what: the types; never values).
        let log = try await broker.healthctl(["log"])
        #expect(log.stdout.contains("import from Apple Health") || log.stdout.contains("write"), "\(log.stdout)")
    }

    /// The zip as the Health app shares it, with GPX routes inside: each route is stored with its
    /// workout, associated with it, with every point of its file; a second import adds nothing.
    @Test func aZipsGPXRoutesAreStoredWithTheirWorkouts() async throws {
        let broker = try BrokerProcess()
        let export = Self.fixtures.appendingPathComponent("paulstaab-health-data-parser/tests/fixtures/export.zip").path
        let result = try await broker.healthctl(["import", export])
        #expect(result.status == 0, "\(result)\n\(broker.log)")
        // 8 workouts and 5 heart-rate records; 4 of the workouts have a route.
        #expect(summaryLine(result) == "13 records read; samples and routes: 17 imported, 0 already there, 0 refused.", "\(result.stdout)")
        let routes = try await broker.healthctl(["samples", "HKWorkoutRouteTypeIdentifier"])
        // route_2023-12-28.gpx has 4 points, 2024-06-10 7, 2025-02-01 6, 2025-03-01 11.
        let counts = routes.lines.dropFirst().compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).first }
        #expect(counts.sorted() == ["11", "4", "6", "7"], "\(routes.stdout)")
        let again = try await broker.healthctl(["import", export])
        #expect(summaryLine(again) == "13 records read; samples and routes: 0 imported, 17 already there, 0 refused.", "\(again.stdout)")
    }

    /// The export's `Me` element is applied only with the user's yes: asked per value by default,
    /// all with `--characteristics yes`; "not set" values are never offered.
    @Test func characteristicsAreSetOnlyWhenTheUserSaysSo() async throws {
        let broker = try BrokerProcess()
        let export = Self.fixtures.appendingPathComponent("dogsheep-healthkit-to-sqlite/tests/export.xml").path
        let declined = try await broker.healthctl(["import", export], stdin: "n\nn\n")
        #expect(declined.status == 0, "\(declined)")
        #expect(declined.stdout.contains("left as"), "\(declined.stdout)")
        let unchanged = try await broker.healthctl(["characteristics", "show"])
        #expect(!unchanged.stdout.contains("1990-02-02"), "\(unchanged.stdout)")

        let accepted = try await broker.healthctl(["import", export, "--characteristics", "yes"])
        #expect(accepted.status == 0, "\(accepted)")
        let shown = try await broker.healthctl(["characteristics", "show"])
        #expect(shown.stdout.contains("1990-02-02"), "\(shown.stdout)")
        #expect(shown.stdout.lowercased().contains("male"), "\(shown.stdout)")
        // Applied already: a third import asks nothing.
        let again = try await broker.healthctl(["import", export], stdin: "")
        #expect(!again.stdout.contains("?"), "\(again.stdout)")
    }

    @Test func whatIsNoExportFailsWithTheReason() async throws {
        let broker = try BrokerProcess()
        let notExport = broker.root + "/export.xml"
        try Data("<html></html>".utf8).write(to: URL(fileURLWithPath: notExport))
        let result = try await broker.healthctl(["import", notExport])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot import") && result.stderr.contains("no <HealthData> element"), "\(result)")
        let missing = try await broker.healthctl(["import", broker.root + "/nothing.zip"])
        #expect(missing.stderr.contains("no such file or folder"), "\(missing)")
    }

    /// HealthKit allows no sync identifier on a correlation, so the import keeps its identity in a
    /// key of its own: a blood-pressure reading is imported with its two samples, once — also
    /// where the file lists those samples again as top-level records, as Apple's exports do.
    @Test(arguments: [false, true])
    func aCorrelationIsImportedWithItsSamplesOnceAndASecondImportAddsNothing(samplesAlsoTopLevel: Bool) async throws {
        let broker = try BrokerProcess()
        let path = broker.root + "/export.xml"
        var xml = HostileExportFixture.xml
        if samplesAlsoTopLevel {
            let copies = xml.split(separator: "\n").filter { $0.contains("BloodPressureSystolic") || $0.contains("BloodPressureDiastolic") }
            let marker = " <Correlation"
            xml = xml.replacingOccurrences(of: marker, with: copies.map { " " + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n") + "\n" + marker)
            #expect(xml.components(separatedBy: "BloodPressureSystolic").count - 1 == 2)
        }
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        let first = try await broker.healthctl(["import", path, "--characteristics", "no"])
        #expect(first.stdout.contains(", 0 refused."), "\(first)")
        let again = try await broker.healthctl(["import", path, "--characteristics", "no"])
        #expect(again.stdout.contains(": 0 imported,") && again.stdout.contains(", 0 refused."), "\(again)")
        let readings = try await broker.healthctl(["samples", "HKCorrelationTypeIdentifierBloodPressure", "--json"])
        #expect(readings.lines.count == 1, "\(readings)")
        #expect(readings.stdout.contains("HKQuantityTypeIdentifierBloodPressureSystolic"), "\(readings)")
        #expect(try await broker.healthctl(["samples", "bloodPressureDiastolic"]).lines.count == 2, "header and one row")
    }
}
