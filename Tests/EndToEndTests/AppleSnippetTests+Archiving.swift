import Foundation
import Testing
import TestSupport

extension AppleSnippetTests {
    /// developer.apple.com/documentation/healthkit/hkstatistics and
    /// developer.apple.com/documentation/healthkit/hkworkoutconfiguration ("Conforms To
    /// NSSecureCoding"): a statistics result fetched from healthd (300 steps from two apps, 200 of
    /// them the app's own) and a swimming configuration read back from their archives with the
    /// same totals, per-source totals and sources, and an equal configuration.
    @Test func archivedStatisticsAndAConfigurationReadBackTheSame() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-archive-statistics")
        try await twoAppsWithSteps(broker, app: app)
        let result = try await broker.runApp(app, ["snippet", "archive-statistics"])
        #expect(result.okValue == "300.0 300.0 200.0 200.0 2 true true", "\(result)")
    }
}
