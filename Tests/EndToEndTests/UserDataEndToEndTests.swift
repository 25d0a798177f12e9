import Foundation
import Testing
import TestSupport

/// The user's own changes through a real healthd: `healthctl add` (checked as an app's save,
/// seen by apps as "Health"), `healthctl delete` (any source, counted and confirmed, reaching
/// apps as deleted objects), `healthctl apps remove` (grants gone, data kept or deleted).
@Suite(.serialized, .timeLimit(.minutes(10))) struct UserDataEndToEndTests {
    static let bodyMass = "HKQuantityTypeIdentifierBodyMass"
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"

    @Test func anEntryIsCheckedAsAnAppsSaveAndAppsSeeItAsTheUsers() async throws {
        let broker = try BrokerProcess()
        let added = try await broker.healthctl(["add", "bodyMass", "72.5", "kg", "--start", "2024-05-01T07:00Z",
                                                "--metadata", "note=after <run>"])
        #expect(added.status == 0, "\(added)\n\(broker.log)")
        let listed = try await broker.healthctl(["samples", "bodyMass", "--json"])
        #expect(listed.lines.count == 1)
        #expect(listed.stdout.contains(#""bundleIdentifier":"@user","name":"Health""#), "\(listed.stdout)")
        #expect(listed.stdout.contains(#""HKWasUserEntered":true"#) && listed.stdout.contains(#""note":"after <run>""#), "\(listed.stdout)")

        let reader = try await broker.installClient("org.test.user-data-reader")
        try await broker.set(reader, "read", Self.bodyMass, allowed: true)
        let seen = try await broker.runApp(reader, ["query", Self.bodyMass, "--unit", "kg"])
        #expect(seen.okValue == "1" && seen.stdout.contains(" 72.5 @user"), "\(seen)")

        // A unit that does not measure the type, a value out of the type's range, a category
        // value that does not exist: refused with what to change, nothing stored.
        let wrongUnit = try await broker.healthctl(["add", "bodyMass", "72", "count/min"])
        #expect(wrongUnit.status != 0 && wrongUnit.stderr.contains("does not measure Body Mass"), "\(wrongUnit)")
        let outOfRange = try await broker.healthctl(["add", "heartRate", "90000", "count/min"])
        #expect(outOfRange.status != 0 && outOfRange.stderr.contains("outside"), "\(outOfRange)")
        let noSuchValue = try await broker.healthctl(["add", "sleepAnalysis", "dreaming"])
        #expect(noSuchValue.status != 0 && noSuchValue.stderr.contains("asleepCore"), "\(noSuchValue)")
        let sleep = try await broker.healthctl(["add", "sleepAnalysis", "asleepCore", "--start", "2024-05-01T23:00Z", "--end", "2024-05-02T06:00Z"])
        #expect(sleep.status == 0, "\(sleep)")
        #expect(try await broker.healthctl(["samples", "heartRate", "--json"]).lines.isEmpty)
    }

    /// `--source` alone: every type that source saved, counted and confirmed once; other
    /// sources' samples of the same types stay.
    @Test func aSourcesSamplesOfEveryTypeAreDeletedTogether() async throws {
        let broker = try BrokerProcess()
        let fixture = broker.root + "/hostile.xml"
        try Data(HostileExportFixture.xml.utf8).write(to: URL(fileURLWithPath: fixture))
        #expect(try await broker.healthctl(["import", fixture, "--characteristics", "no"]).status == 0)
        // The fixture's iPhone saved one step count and one night of sleep.
        let iPhone = ["delete", "--source", "@import/Apple Health/iPhone"]
        let declined = try await broker.healthctl(iPhone, stdin: "n\n")
        #expect(declined.stdout.contains("Delete 2 samples of 2 types from @import/Apple Health/iPhone?")
                && declined.stdout.contains("Nothing was deleted"), "\(declined)")
        let confirmed = try await broker.healthctl(iPhone, stdin: "y\n")
        #expect(confirmed.stdout.contains("Deleted 2 samples."), "\(confirmed)")
        #expect(try await broker.healthctl(["samples", "stepCount", "--json"]).lines.isEmpty)
        #expect(try await broker.healthctl(["samples", "sleepAnalysis", "--json"]).lines.isEmpty)
        #expect(try await broker.healthctl(["samples", "heartRate", "--json"]).lines.count == 2, "another source's samples stay")
        let again = try await broker.healthctl(iPhone + ["--yes"])
        #expect(again.stdout.contains("No samples match"), "\(again)")
    }

    @Test func deletionsAreCountedConfirmedAndReachAppsAsDeletedObjects() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.user-data-writer")
        try await broker.set(writer, "share", Self.heartRate, allowed: true)
        try await broker.set(writer, "read", Self.heartRate, allowed: true)
        for (value, minute) in [(60, 0), (70, 10), (80, 20)] {
            let start = 1_714_546_800 + minute * 60  // 2024-05-01 07:00Z
            let saved = try await broker.runApp(writer, ["save", Self.heartRate, "\(value)", "count/min", "\(start)", "\(start)"])
            #expect(saved.status == 0, "\(saved)")
        }
        let before = try await broker.runApp(writer, ["anchored", Self.heartRate])
        #expect(before.stdout.contains("delivery initial 3 0"), "\(before)")

        // Declined: nothing goes. Then confirmed: the two in range go.
        let range = ["delete", "--type", "heartRate", "--from", "2024-05-01T07:05Z", "--to", "2024-05-01T08:00Z"]
        let declined = try await broker.healthctl(range, stdin: "n\n")
        #expect(declined.stdout.contains("Delete 2 Heart Rate samples?") && declined.stdout.contains("Nothing was deleted"), "\(declined)")
        let noAnswer = try await broker.healthctl(range, stdin: "")
        #expect(noAnswer.stdout.contains("Nothing was deleted"), "input that ends is a no: \(noAnswer)")
        #expect(try await broker.healthctl(["samples", "heartRate"]).lines.count == 4, "header and 3 rows")
        let confirmed = try await broker.healthctl(range, stdin: "y\n")
        #expect(confirmed.stdout.contains("Deleted 2 Heart Rate samples."), "\(confirmed)")

        // From the start (the sandboxed app keeps no anchor file here): one left, two deleted.
        let changes = try await broker.runApp(writer, ["anchored", Self.heartRate])
        #expect(changes.stdout.contains("delivery initial 1 2"), "the app learns of both deletions: \(changes)")

        // By UUID, with --yes; an unknown UUID deletes nothing and says which.
        let json = try await broker.healthctl(["samples", "heartRate", "--json"])
        let uuid = try #require(json.stdout.firstMatch(of: /"uuid":"([0-9a-f-]{36})"/).map { String($0.1) })
        let unknown = try await broker.healthctl(["delete", uuid, "0190f1c2-7a3b-7c4d-8e5f-0123456789ab", "--yes"])
        #expect(unknown.status != 0 && unknown.stderr.contains("0190f1c2-7a3b-7c4d-8e5f-0123456789ab"), "\(unknown)")
        #expect(try await broker.healthctl(["samples", "heartRate", "--json"]).lines.count == 1)
        let byUUID = try await broker.healthctl(["delete", uuid, "--yes"])
        #expect(byUUID.stdout.contains("Deleted 1 sample."), "\(byUUID)")
        let log = try await broker.healthctl(["log"])
        #expect(log.stdout.contains("deleted by the user"), "\(log.stdout)")
    }

    @Test func removingAnAppEndsItsGrantsAndKeepsOrDeletesItsDataAsTheUserSays() async throws {
        let broker = try BrokerProcess()
        var counts: [String: Int] = [:]
        for (app, answer) in [("org.test.kept", "n\n"), ("org.test.deleted", "y\n")] {
            let id = try await broker.installClient(app)
            try await broker.set(id, "share", Self.heartRate, allowed: true)
            #expect(try await broker.runApp(id, ["save", Self.heartRate, "65", "count/min", "1714546800", "1714546800"]).status == 0)
            let removed = try await broker.healthctl(["apps", "remove", id], stdin: answer)
            #expect(removed.status == 0, "\(removed)\n\(broker.log)")
            counts[app] = try await broker.healthctl(["samples", "heartRate", "--json"]).lines.count
            let grants = try await broker.healthctl(["grants", id])
            #expect(grants.status != 0, "the app is gone: \(grants)")
        }
        #expect(counts == ["org.test.kept": 1, "org.test.deleted": 1], "the kept app's sample stays, the other's goes")
        let again = try await broker.healthctl(["apps", "remove", "org.test.kept", "--keep-data"])
        #expect(again.status != 0 && again.stderr.contains("no installed app org.test.kept"), "\(again)")
    }
}
