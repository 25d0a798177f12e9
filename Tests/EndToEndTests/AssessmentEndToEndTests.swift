import Foundation
import HealthModel
import Testing
import TestSupport

/// GAD-7 and PHQ-9 samples as the user sees them through healthctl, after a sandboxed app saved
/// them through a real healthd (the AppleSnippetTests "assessments" snippet): the listing shows
/// the score with Apple's risk name (developer.apple.com/documentation/healthkit/hkgad7assessment/
/// risk-swift.property), the JSON line carries the score, and the CSV export the score, risk
/// and every answer.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AssessmentEndToEndTests {
    @Test func healthctlShowsAndExportsTheScoreRiskAndAnswers() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.assessments-display")
        for type in [AppleSnippetTests.gad7, AppleSnippetTests.phq9] {
            try await broker.set(app, "share", type, allowed: true)
            try await broker.set(app, "read", type, allowed: true)
        }
        let saved = try await broker.runApp(app, ["snippet", "assessments"])
        #expect(saved.okValue != nil, "\(saved)")

        let listing = try await broker.healthctl(["samples", "PHQ9"])
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.stdout.contains("15  score, PHQ-9 risk moderatelySevere; answers 3,3,3,2,2,1,1,0,4"), "\(listing)")

        let json = try await broker.healthctl(["samples", "GAD7", "--json"])
        #expect(json.stdout.contains(#""unit":"score""#) && json.stdout.contains(#""value":9"#), "\(json)")

        let folder = broker.root + "/csv"
        let csv = try await broker.healthctl(["export", folder, "--format", "csv", "--types", "GAD7,PHQ9"])
        #expect(csv.status == 0, "\(csv)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == ["GAD7.csv", "PHQ9.csv"], "\(files)")
        let gad7 = try String(contentsOfFile: folder + "/GAD7.csv", encoding: .utf8)
        #expect(gad7.contains(",9,score,") && gad7.contains("GAD-7 risk mild; answers 1,1,2,3,0,1,1"), "\(gad7)")
    }

    /// developer.apple.com/documentation/healthkit/protecting-user-privacy: an app sees another
    /// app's samples only with read permission for the type. A reader granted GAD-7 sees the
    /// saver's one GAD-7 and, without a PHQ-9 grant, no PHQ-9; an app with no grant sees neither.
    @Test func anotherAppReadsAnAssessmentOnlyWithReadPermissionForItsType() async throws {
        let broker = try BrokerProcess()
        let saver = try await broker.installClient("org.test.assessments-saver")
        for type in [AppleSnippetTests.gad7, AppleSnippetTests.phq9] {
            try await broker.set(saver, "share", type, allowed: true)
        }
        #expect(try await broker.runApp(saver, ["snippet", "assessments-save"]).okValue == "saved")
        let reader = try await broker.installClient("org.test.assessments-reader")
        try await broker.set(reader, "read", AppleSnippetTests.gad7, allowed: true)
        let stranger = try await broker.installClient("org.test.assessments-stranger")
        var counts: [String] = []
        for app in [reader, stranger] {
            for type in [AppleSnippetTests.gad7, AppleSnippetTests.phq9] {
                let query = try await broker.runApp(app, ["query", type])
                counts.append(query.okValue ?? "\(query)")
            }
        }
        #expect(counts == ["1", "0", "0", "0"], "\(counts)")
    }
}
