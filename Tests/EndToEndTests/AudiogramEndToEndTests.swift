import Foundation
import HealthModel
import Testing
import TestSupport

/// Audiograms as another app and the user see them, after a sandboxed app saved one through a
/// real healthd (the AppleSnippetTests "audiogram-save" snippet).
@Suite(.serialized, .timeLimit(.minutes(10))) struct AudiogramEndToEndTests {
    /// developer.apple.com/documentation/healthkit/protecting-user-privacy: an app sees another
    /// app's samples only with read permission for the type. A reader granted audiograms sees the
    /// saver's one; an app granted only another type, and one never asked, see none — exactly as
    /// if the store held no audiogram.
    @Test func anotherAppReadsAnAudiogramOnlyWithReadPermission() async throws {
        let broker = try BrokerProcess()
        let saver = try await broker.installClient("org.test.audiogram-saver")
        try await broker.set(saver, "share", AppleSnippetTests.audiogram, allowed: true)
        #expect(try await broker.runApp(saver, ["snippet", "audiogram-save"]).okValue == "saved")
        let reader = try await broker.installClient("org.test.audiogram-reader")
        try await broker.set(reader, "read", AppleSnippetTests.audiogram, allowed: true)
        let denied = try await broker.installClient("org.test.audiogram-denied")
        try await broker.set(denied, "read", AppleSnippetTests.audiogram, allowed: false)
        let stranger = try await broker.installClient("org.test.audiogram-stranger")
        var counts: [String] = []
        for app in [reader, denied, stranger] {
            let query = try await broker.runApp(app, ["query", AppleSnippetTests.audiogram])
            counts.append(query.okValue ?? "\(query)")
        }
        #expect(counts == ["1", "0", "0"], "\(counts)")
    }

    /// healthctl lists the audiogram with each frequency's ears, its --json line carries the
    /// points by Apple's side names, and the CSV export writes Audiogram.csv with the detail.
    @Test func healthctlShowsAndExportsThePoints() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.audiogram-display")
        try await broker.set(app, "share", AppleSnippetTests.audiogram, allowed: true)
        #expect(try await broker.runApp(app, ["snippet", "audiogram-save"]).okValue == "saved")

        let listing = try await broker.healthctl(["samples", AppleSnippetTests.audiogram])
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.stdout.contains("3  points: 500 Hz: left 10, right 15 dBHL; 1000 Hz: left 30 (masked) (clamped …80), right 25 dBHL;"
                                        + " 4000 Hz: right 45 dBHL"), "\(listing)")

        let json = try await broker.healthctl(["samples", AppleSnippetTests.audiogram, "--json"])
        #expect(json.stdout.contains(#""unit":"points""#) && json.stdout.contains(#""value":3"#), "\(json)")
        #expect(json.stdout.contains(#""frequency":4000"#) && json.stdout.contains(#""side":"right""#), "\(json)")

        let folder = broker.root + "/csv"
        let csv = try await broker.healthctl(["export", folder, "--format", "csv", "--types", AppleSnippetTests.audiogram])
        #expect(csv.status == 0, "\(csv)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == ["Audiogram.csv"], "\(files)")
        let text = try String(contentsOfFile: folder + "/Audiogram.csv", encoding: .utf8)
        #expect(text.contains(",3,points,") && text.contains("4000 Hz: right 45 dBHL"), "\(text)")
    }

    /// `healthctl export` writes the audiogram as healthkit11.dtd's `Audiogram` with
    /// `SensitivityPoint` children; importing that export into an empty store gives the same
    /// points — the masked and clamped 1 kHz left test too (OpenHealthKit's `SensitivityTest`
    /// children carry what the DTD has no attributes for) —, and importing it into a store that
    /// has it adds nothing.
    @Test func anAudiogramSurvivesExportAndImport() async throws {
        let original = try BrokerProcess()
        let app = try await original.installClient("org.test.audiogram-export")
        try await original.set(app, "share", AppleSnippetTests.audiogram, allowed: true)
        #expect(try await original.runApp(app, ["snippet", "audiogram-save"]).okValue == "saved")
        try FileManager.default.createDirectory(atPath: original.root + "/out", withIntermediateDirectories: true)
        let zip = original.root + "/out/export.zip"
        let exported = try await original.healthctl(["export", zip])
        #expect(exported.status == 0, "\(exported)")

        let copy = try BrokerProcess()
        let imported = try await copy.healthctl(["import", zip, "--characteristics", "no"])
        #expect(imported.status == 0 && imported.stdout.contains(", 0 refused"), "\(imported)")
        let listing = try await copy.healthctl(["samples", AppleSnippetTests.audiogram])
        #expect(listing.stdout.contains("3  points: 500 Hz: left 10, right 15 dBHL; 1000 Hz: left 30 (masked) (clamped …80), right 25 dBHL;"
                                        + " 4000 Hz: right 45 dBHL"), "\(listing)")
        #expect(listing.stdout.contains("Audiometer"), "the device travels: \(listing)")

        let again = try await copy.healthctl(["import", zip, "--characteristics", "no"])
        #expect(again.status == 0, "\(again)")
        let after = try await copy.healthctl(["samples", AppleSnippetTests.audiogram])
        #expect(after.stdout.components(separatedBy: "points:").count == 2, "one audiogram, not two: \(after)")
    }
}
